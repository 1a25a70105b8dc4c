import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Issued invoices whose state the accounts read model (account_invoice) has not been sent yet:
 * those that existed before invoices published their state with a version. Filled by the migration
 * that adds this table; the read-model backfill worker publishes each once and removes its row.
 */
export const InvoiceReadModelBackfillEntity = defineEntity({
  name: 'InvoiceReadModelBackfill',
  tableName: 'invoice_read_model_backfill',
  properties: {
    invoice_id: p.uuid().primary(),
    organization_id: p.uuid(),
  },
});

export type InvoiceReadModelBackfillRow = InferEntity<typeof InvoiceReadModelBackfillEntity>;
