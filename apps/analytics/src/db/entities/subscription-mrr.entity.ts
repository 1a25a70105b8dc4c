import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Each subscription's MRR now, from its latest subscription.changed (by `version`), with the
 * columns the subscription list's filters read, so total-mrr is a query on this table alone.
 * Base-currency figures are rounded at the rate held since the subscription's latest renewal.
 */
export const SubscriptionMrrEntity = defineEntity({
  name: 'SubscriptionMrr',
  tableName: 'subscription_mrr',
  indexes: [
    { name: 'subscription_mrr_organization_status_idx', properties: ['organization_id', 'status'] },
    // Key first, as every per-key lookup (db/sql-rows rowsPerKey): see the account_activity index.
    { name: 'subscription_mrr_account_idx', properties: ['account_id', 'organization_id'] },
    { name: 'subscription_mrr_organization_plan_idx', properties: ['organization_id', 'plan_id'] },
    { name: 'subscription_mrr_organization_terms_idx', properties: ['organization_id', 'terms_id'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    plan_id: p.uuid(),
    terms_id: p.uuid(),
    status: p.string().length(32),
    collection_method: p.string().length(32),
    currency: p.string().length(3),
    quantity: p.integer(),
    interval_type: p.string().length(8),
    interval_count: p.integer(),
    has_custom_price: p.boolean(),
    payment_terms: p.integer().nullable(),
    start_date: p.datetime().nullable(),
    original_start_date: p.datetime().nullable(),
    next_renewal_date: p.datetime().nullable(),
    end_date: p.datetime().nullable(),
    last_modified_date: p.datetime(),
    /** Exact MRR of the pricing in force, in the subscription's currency (0 without MRR). */
    mrr: p.decimal('string').precision(40).scale(20),
    /** Base currency per unit held since the latest renewal; null: no rate known for the currency. */
    rate: p.decimal('string').precision(20).scale(10).nullable(),
    /** Base-currency MRR counted in total_mrr (active, not_renewing). */
    total_mrr: p.decimal('string').precision(20).scale(2),
    /** Base-currency MRR once every known scheduled start, change and cancellation took effect. */
    future_mrr: p.decimal('string').precision(20).scale(2),
    /** Base-currency MRR of a pending_manual_renewal subscription. */
    pending_mrr: p.decimal('string').precision(20).scale(2),
    churn_reason: p.uuid().nullable(),
    custom_churn_reason: p.string().length(100).nullable(),
    version: p.integer(),
    /** Cancelled with cancel_invalid: every activity of it is dropped, later invoice ones included. */
    invalid: p.boolean().default(false),
  },
});
export type SubscriptionMrrRow = InferEntity<typeof SubscriptionMrrEntity>;

/** The organization's totals over subscription_mrr, kept in step with it: unfiltered total-mrr reads one row. */
export const MrrTotalsEntity = defineEntity({
  name: 'MrrTotals',
  tableName: 'mrr_totals',
  properties: {
    organization_id: p.uuid().primary(),
    total_mrr: p.decimal('string').precision(24).scale(2),
    future_mrr: p.decimal('string').precision(24).scale(2),
    pending_mrr: p.decimal('string').precision(24).scale(2),
    subscriptions_count: p.integer(),
  },
});
export type MrrTotalsRow = InferEntity<typeof MrrTotalsEntity>;
