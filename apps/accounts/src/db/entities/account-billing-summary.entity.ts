import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model of what other services know about an account: subscriptions (subscriptions service)
 * and invoices (invoicing service). It is fed by their events and serves the account list filters
 * that need their data and the "no delete while billed" rule. Until those services publish, every
 * account has no row, which reads as "no subscriptions, no invoices".
 */
export const AccountBillingSummaryEntity = defineEntity({
  name: 'AccountBillingSummary',
  tableName: 'account_billing_summary',
  properties: {
    account_id: p.uuid().primary(),
    organization_id: p.uuid(),
    non_expired_subscriptions: p.integer(),
    invoices: p.integer(),
    subscription_statuses: p.json<string[]>(),
    subscription_collection_methods: p.json<string[]>(),
    subscription_set_to_expire: p.boolean(),
    balance: p.decimal('string').precision(20).scale(6),
    active_payment_method: p.string().length(32).nullable(),
    registered_for_direct_debit: p.boolean(),
    updated_at: p.datetime(),
  },
});

export type AccountBillingSummaryRow = InferEntity<typeof AccountBillingSummaryEntity>;
