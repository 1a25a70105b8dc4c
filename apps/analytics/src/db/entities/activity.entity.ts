import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An MRR movement of a subscription (api-spec Activity, gaps.md §8). `plan_key` names the planned
 * moment a change known ahead was recorded for (start, change@…, cancel@…), so the event of that
 * moment completes the same row; `planned` while it has not happened. `deleted`: by the API;
 * `dropped`: by the service (a plan given up, cancel_invalid). Both read as `deleted`.
 */
export const ActivityEntity = defineEntity({
  name: 'Activity',
  tableName: 'activity',
  indexes: [
    { name: 'activity_organization_date_idx', properties: ['organization_id', 'date'] },
    { name: 'activity_organization_subscription_idx', properties: ['organization_id', 'subscription_id'] },
    // Key first, as every per-key lookup (db/sql-rows rowsPerKey): see the account_activity index.
    // (A subscription's rows are looked up by activity_subscription_plan_key_unique.)
    { name: 'activity_account_idx', properties: ['account_id', 'organization_id', 'date'] },
    // An invoice's activities: a payment_made takes the subscription of its invoice's first one, an
    // invoice activity names it on the invoice's payments (per event, or per batch of 100). Key
    // first, as the per-key lookups' indexes (see account_activity's).
    { name: 'activity_invoice_idx', properties: ['invoice_id', 'organization_id'] },
  ],
  uniques: [{ name: 'activity_subscription_plan_key_unique', properties: ['subscription_id', 'plan_key'] }],
  properties: {
    id: p.uuid().primary(),
    /** Insertion order: ties of `date` keep the order things happened. */
    seq: p.bigint('number').autoincrement().unique(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    subscription_id: p.uuid().nullable(),
    invoice_id: p.uuid().nullable(),
    type: p.string().length(32),
    date: p.datetime(),
    created_date: p.datetime(),
    updated_date: p.datetime(),
    is_manual: p.boolean(),
    is_churn: p.boolean(),
    deleted: p.boolean(),
    dropped: p.boolean(),
    planned: p.boolean(),
    plan_key: p.string().length(64).nullable(),
    old_currency: p.string().length(3).nullable(),
    new_currency: p.string().length(3).nullable(),
    old_mrr_in_subscription_currency: p.decimal('string').precision(40).scale(20).nullable(),
    new_mrr_in_subscription_currency: p.decimal('string').precision(40).scale(20).nullable(),
    old_mrr: p.decimal('string').precision(20).scale(2).nullable(),
    new_mrr: p.decimal('string').precision(20).scale(2).nullable(),
    mrr_change: p.decimal('string').precision(20).scale(2).nullable(),
    old_quantity: p.integer().nullable(),
    new_quantity: p.integer().nullable(),
    old_terms: p.uuid().nullable(),
    new_terms: p.uuid().nullable(),
    old_plan: p.uuid().nullable(),
    new_plan: p.uuid().nullable(),
    /** For churn: the subscription's churn reason (uuid) and custom text when it ended. */
    churn_reason: p.uuid().nullable(),
    custom_churn_reason: p.string().length(100).nullable(),
  },
});
export type ActivityRow = InferEntity<typeof ActivityEntity>;

/**
 * An MRR movement of an account (api-spec Account activity), derived from its subscriptions'
 * activities (`source`: the activity that caused it) or written by the API (`is_manual`).
 */
export const AccountActivityEntity = defineEntity({
  name: 'AccountActivity',
  tableName: 'account_activity',
  indexes: [
    { name: 'account_activity_organization_date_idx', properties: ['organization_id', 'date'] },
    // Key first: the per-key lookups (db/sql-rows rowsPerKey) match the key in the index and test
    // the organization on the rows found, so no (organization_id, …) index can serve them. Without
    // planner statistics every such index looks alike for `organization_id = ?` (a row or two, the
    // width-based estimate of a wide table's rows) and the smallest one won: (organization_id, date),
    // scanning each organization's rows once per key (a billing run of 10,000: 2.4 s of Postgres
    // under analytics' organization lock, growing with the square of the organization).
    { name: 'account_activity_account_idx', properties: ['account_id', 'organization_id'] },
  ],
  uniques: [{ name: 'account_activity_source_unique', properties: ['source_id'] }],
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint('number').autoincrement().unique(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    source_id: p.uuid().nullable(),
    subscription: p.string().length(64).nullable(),
    type: p.string().length(32),
    date: p.datetime(),
    created_date: p.datetime(),
    old_mrr: p.decimal('string').precision(20).scale(2).nullable(),
    new_mrr: p.decimal('string').precision(20).scale(2).nullable(),
    mrr_change: p.decimal('string').precision(20).scale(2),
    churn_reason: p.string().length(256),
    account_first_subscription_start_date: p.datetime().nullable(),
    is_manual: p.boolean(),
    deleted: p.boolean(),
    dropped: p.boolean(),
    /** Manual ones: the account code and company name as written. */
    account_code: p.string().length(128).nullable(),
    company_name: p.string().length(256).nullable(),
  },
});
export type AccountActivityRow = InferEntity<typeof AccountActivityEntity>;
