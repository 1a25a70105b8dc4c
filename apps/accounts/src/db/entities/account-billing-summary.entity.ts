import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model of what the invoicing and payments services know about an account (invoices, balance,
 * payment method), to be fed by their events: it serves the account list filters that need their
 * data and the "no delete while invoiced" rule. Until those services publish, every account has no
 * row, which reads as "no invoices". Subscriptions have their own model: account_subscription.
 */
export const AccountBillingSummaryEntity = defineEntity({
  name: 'AccountBillingSummary',
  tableName: 'account_billing_summary',
  properties: {
    account_id: p.uuid().primary(),
    organization_id: p.uuid(),
    invoices: p.integer(),
    balance: p.decimal('string').precision(20).scale(6),
    active_payment_method: p.string().length(32).nullable(),
    registered_for_direct_debit: p.boolean(),
    updated_at: p.datetime(),
  },
});

export type AccountBillingSummaryRow = InferEntity<typeof AccountBillingSummaryEntity>;
