import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** A charge of the subscription engine turned into invoice lines: exactly once (primary key). */
export const InvoicedChargeEntity = defineEntity({
  name: 'InvoicedCharge',
  tableName: 'invoiced_charge',
  properties: {
    charge_id: p.uuid().primary(),
    organization_id: p.uuid(),
    invoice_id: p.uuid(),
    created_at: p.datetime(),
  },
});

export type InvoicedChargeRow = InferEntity<typeof InvoicedChargeEntity>;
