import { type CurrencyCode, formatExact } from '@billing/money';
import type { RatedActivity } from './activity-rates.js';
import { toBaseMrr } from './base-mrr.js';

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

/** The stored columns of a rated activity (its MRR in the subscription's and the base currency). */
export function activityColumns(activity: RatedActivity, context: ActivityContext) {
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

export type ActivityColumns = ReturnType<typeof activityColumns>;
