import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ChargeLineRecord, FixedContract } from '../../domain/lifecycle/index.js';
import { countChange } from '../subscription-version.js';

/** A waiting term or quantity change as stored (terms by uuid: prices are read fresh when it applies). */
export interface StoredScheduledChange {
  uuid: string;
  at: string;
  change_type: 'at_specified_time' | 'at_renewal';
  terms_id: string;
  quantity: number;
  early_renewal: boolean;
}

/**
 * A subscription with its engine state. `due_at` is when the scheduler must look at it next
 * (null: nothing waiting); test-clock organizations' rows are processed only by ProcessDue.
 * `version` orders its states for readers that get them twice (see subscription-version.ts).
 */
export const SubscriptionEntity = defineEntity({
  name: 'Subscription',
  tableName: 'subscription',
  indexes: [
    { name: 'subscription_organization_created_idx', properties: ['organization_id', 'created_at'] },
    { name: 'subscription_organization_account_idx', properties: ['organization_id', 'account_id'] },
    // The scheduler claims `order by due_at, id limit n`: with id in the index that reads n rows,
    // without it every claim sorted all due rows (a whole renewal day, on disk at 100,000).
    { name: 'subscription_due_idx', properties: ['on_test_clock', 'due_at', 'id'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    plan_terms_id: p.uuid(),
    quantity: p.integer(),
    override_price: p.decimal('string').precision(20).scale(6).nullable(),
    status: p.string().length(32),
    time_zone: p.string().length(64),
    on_test_clock: p.boolean(),
    start_date: p.datetime(),
    original_start_date: p.datetime(),
    base_renewal_date: p.datetime().nullable(),
    period_n: p.integer(),
    charged_through: p.datetime().nullable(),
    last_renewal_date: p.datetime().nullable(),
    next_renewal_date: p.datetime().nullable(),
    end_date: p.datetime().nullable(),
    cancellation_type: p.string().length(32).nullable(),
    cancel_at: p.datetime().nullable(),
    scheduled_change: p.json<StoredScheduledChange>().nullable(),
    since: p.datetime().nullable(),
    pending_lines: p.json<ChargeLineRecord[]>(),
    contract: p.json<FixedContract>().nullable(),
    due_at: p.datetime().nullable(),
    collection_method: p.string().length(32),
    group_on_invoice: p.boolean(),
    is_auto_renew_enabled: p.boolean(),
    payment_terms: p.integer().nullable(),
    pre_renewal_days_offset: p.integer(),
    pre_renewal_invoicing: p.boolean(),
    po_number: p.string().length(128),
    invoice_supplement: p.text().nullable(),
    reference_person: p.string().length(128),
    account_reference_person: p.string().length(128),
    case_number: p.string().length(128),
    churn_reason_id: p.uuid().nullable(),
    custom_churn_reason: p.string().length(100).nullable(),
    custom_fields: p.json<Record<string, unknown>>(),
    version: p.integer().default(1),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type SubscriptionRow = InferEntity<typeof SubscriptionEntity>;

// Any flushed change the code did not count itself still gets its next version (counted once).
SubscriptionEntity.addHook<SubscriptionRow>('beforeUpdate', ({ entity }) => countChange(entity));
