import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An issued invoice with collection_method payment_card, taken in from invoice.issued (or, for
 * the test clock's advance, from invoicing's list): what it owes and where its payment stands.
 * One row per invoice, so taking it in twice is a no-op.
 */
export const InvoicePaymentEntity = defineEntity({
  name: 'InvoicePayment',
  tableName: 'invoice_payment',
  indexes: [
    { name: 'invoice_payment_due_idx', properties: ['status', 'next_attempt_at'] },
    { name: 'invoice_payment_organization_idx', properties: ['organization_id', 'status'] },
  ],
  properties: {
    /** The invoice's uuid. */
    invoice_id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    invoice_number: p.string().length(32),
    amount: p.decimal('string').precision(20).scale(6),
    currency: p.string().length(3),
    /** pending, paid, failed (every attempt declined: left open), no_card (left open, reported). */
    status: p.string().length(16),
    /** Whether the organization runs on a test clock: its attempts are run by the clock's advance. */
    test_clock: p.boolean(),
    /** When the next attempt falls due (organization's clock); null once settled. */
    next_attempt_at: p.datetime().nullable(),
    /** When the first attempt fell due: the dunning schedule counts its days from it. */
    first_attempt_at: p.datetime().nullable(),
    attempts_made: p.integer(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type InvoicePaymentRow = InferEntity<typeof InvoicePaymentEntity>;
