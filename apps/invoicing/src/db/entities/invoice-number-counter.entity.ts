import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The last invoice number of an organization. Issuing bumps it in the issuing transaction: the
 * row lock orders concurrent issuers and a rolled-back issue gives its number back (no gaps).
 */
export const InvoiceNumberCounterEntity = defineEntity({
  name: 'InvoiceNumberCounter',
  tableName: 'invoice_number_counter',
  properties: {
    organization_id: p.uuid().primary(),
    last_number: p.bigint('number'),
  },
});

export type InvoiceNumberCounterRow = InferEntity<typeof InvoiceNumberCounterEntity>;
