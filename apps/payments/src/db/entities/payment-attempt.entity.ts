import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One charge of an invoice (gaps.md §11). Written and committed with outcome `pending` BEFORE the
 * gateway is called; its id is the gateway's idempotency key. A crash after the call leaves it
 * pending, and the retry calls the gateway again with the same key, which answers with the first
 * call's outcome: never a second charge, never a lost outcome.
 */
export const PaymentAttemptEntity = defineEntity({
  name: 'PaymentAttempt',
  tableName: 'payment_attempt',
  uniques: [{ name: 'payment_attempt_invoice_number_uniq', properties: ['invoice_id', 'number'] }],
  indexes: [{ name: 'payment_attempt_settle_idx', properties: ['outcome', 'settled_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    invoice_id: p.uuid(),
    account_id: p.uuid(),
    card_id: p.uuid(),
    gateway: p.string().length(32),
    amount: p.decimal('string').precision(20).scale(6),
    currency: p.string().length(3),
    number: p.integer(),
    /** pending, succeeded, declined */
    outcome: p.string().length(16),
    gateway_reference: p.string().length(256).default(''),
    decline_reason: p.string().length(256).default(''),
    attempted_at: p.datetime(),
    completed_at: p.datetime().nullable(),
    /** When invoicing confirmed the invoice paid (succeeded attempts only). */
    settled_at: p.datetime().nullable(),
  },
});

export type PaymentAttemptRow = InferEntity<typeof PaymentAttemptEntity>;
