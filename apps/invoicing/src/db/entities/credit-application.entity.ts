import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** Credit moved from a credit note to an invoice (apply-credit-note, or a credit note's own invoice). */
export const CreditApplicationEntity = defineEntity({
  name: 'CreditApplication',
  tableName: 'credit_application',
  indexes: [{ name: 'credit_application_organization_idx', properties: ['organization_id', 'credit_note_id'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    credit_note_id: p.uuid(),
    target_invoice_id: p.uuid(),
    amount: p.decimal('string').precision(20).scale(6),
    created_at: p.datetime(),
  },
});

export type CreditApplicationRow = InferEntity<typeof CreditApplicationEntity>;
