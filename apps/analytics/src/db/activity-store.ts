import { randomUUID } from 'node:crypto';
import type { CurrencyCode } from '@billing/money';
import { formatExact } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RatedActivity } from '../domain/activity-rates.js';
import { toBaseMrr } from '../domain/base-mrr.js';
import { ActivityEntity, type ActivityRow } from './entities/activity.entity.js';

/** Where an activity of a subscription belongs and when it was recorded. */
export interface ActivityContext {
  organizationId: string;
  accountId: string;
  subscriptionId: string;
  baseCurrency: CurrencyCode;
  churnReason: string | null;
  customChurnReason: string | null;
  /** The recording moment (the event's occurred_at): created_date / updated_date. */
  now: Date;
}

function columnsOf(activity: RatedActivity, context: ActivityContext) {
  const oldBase = toBaseMrr(activity.old_mrr, activity.old_rate, context.baseCurrency);
  const newBase = toBaseMrr(activity.new_mrr, activity.new_rate, context.baseCurrency);
  return {
    type: activity.type,
    date: activity.date,
    is_churn: activity.is_churn,
    old_currency: activity.old?.currency ?? null,
    new_currency: activity.new?.currency ?? null,
    old_mrr_in_subscription_currency: formatExact(activity.old_mrr),
    new_mrr_in_subscription_currency: formatExact(activity.new_mrr),
    old_mrr: oldBase?.toFixed(2) ?? null,
    new_mrr: newBase?.toFixed(2) ?? null,
    mrr_change: oldBase && newBase ? newBase.minus(oldBase).toFixed(2) : null,
    old_quantity: activity.old?.quantity ?? null,
    new_quantity: activity.new?.quantity ?? null,
    old_terms: activity.old?.terms ?? null,
    new_terms: activity.new?.terms ?? null,
    old_plan: activity.old?.plan ?? null,
    new_plan: activity.new?.plan ?? null,
    churn_reason: activity.is_churn ? context.churnReason : null,
    custom_churn_reason: activity.is_churn ? context.customChurnReason : null,
  };
}

/**
 * Records a subscription's activity. One with a plan key completes or re-plans the row of that
 * key (a planned row turns happened; a happened row is not planned again), others are new rows.
 */
export async function saveActivity(em: EntityManager, activity: RatedActivity, context: ActivityContext) {
  const columns = columnsOf(activity, context);
  if (activity.plan_key) {
    const existing = await em.findOne(ActivityEntity, {
      subscription_id: context.subscriptionId,
      plan_key: activity.plan_key,
    });
    if (existing) {
      if (activity.planned && !existing.planned) return;
      em.assign(existing, { ...columns, planned: activity.planned, dropped: false, updated_date: context.now });
      return;
    }
  }
  em.create(ActivityEntity, {
    id: randomUUID(),
    organization_id: context.organizationId,
    account_id: context.accountId,
    subscription_id: context.subscriptionId,
    invoice_id: null,
    created_date: context.now,
    updated_date: context.now,
    is_manual: false,
    deleted: false,
    dropped: false,
    planned: activity.planned,
    plan_key: activity.plan_key,
    ...columns,
  } as ActivityRow);
}

/** Planned activities of the subscription whose moment is no longer planned are dropped. */
export async function dropPlannedExcept(em: EntityManager, subscriptionId: string, keep: string[], now: Date) {
  const planned = await em.find(ActivityEntity, { subscription_id: subscriptionId, planned: true, dropped: false });
  for (const row of planned) {
    if (row.plan_key && keep.includes(row.plan_key)) continue;
    em.assign(row, { dropped: true, planned: false, updated_date: now });
  }
}

/** cancel_invalid: every activity of the subscription is dropped. */
export async function dropAllActivities(em: EntityManager, subscriptionId: string, now: Date) {
  const rows = await em.find(ActivityEntity, { subscription_id: subscriptionId, dropped: false });
  for (const row of rows) em.assign(row, { dropped: true, planned: false, updated_date: now });
}
