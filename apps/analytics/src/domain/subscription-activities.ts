import type { Decimal } from '@billing/money';
import { type ActivityType, changeActivityType } from './activity-type.js';
import { activityMrr, type Pricing } from './pricing.js';

/** The subscription's state after a change, as far as activities need it. */
export interface SubscriptionSnapshot {
  uuid: string;
  account: string;
  status: string;
  start_date: Date | null;
  /** The pending cancellation of a not_renewing subscription. */
  cancel_at: Date | null;
  /** The waiting term or quantity change's moment. */
  scheduled_change_at: Date | null;
  churn_reason: string | null;
  custom_churn_reason: string | null;
}

/** One subscription.changed, in domain terms. */
export interface SubscriptionChange {
  /** created, activated, changed, change_scheduled, renewed, cancelled, expired, reactivated, … */
  change: string;
  effective_at: Date;
  change_type: string;
  cancellation_type: string;
  old: Pricing | null;
  new: Pricing;
  /** The pricing once the waiting change applied (unset: none waits). */
  scheduled: Pricing | null;
  subscription: SubscriptionSnapshot;
}

/** An activity to record; one with a `plan_key` completes (or re-plans) the row of that key. */
export interface ActivityDraft {
  type: ActivityType;
  date: Date;
  old: Pricing | null;
  new: Pricing | null;
  old_mrr: Decimal;
  new_mrr: Decimal;
  is_churn: boolean;
  plan_key: string | null;
  /** Known ahead, not happened yet. */
  planned: boolean;
  /** The subscription starts a period here: MRR takes the exchange rate of this moment. */
  renewal: boolean;
}

export interface ChangeActivities {
  /** What happened with this event, in order. */
  happened: ActivityDraft[];
  /** Everything the subscription now plans (known ahead); planned rows with other keys are dropped. */
  planned: ActivityDraft[];
  /** cancel_invalid: every activity of the subscription is dropped and none recorded. */
  dropAll: boolean;
}

const keyAt = (what: 'change' | 'cancel', at: Date): string => `${what}@${at.toISOString()}`;
const START_KEY = 'start';
const RUNNING_CHANGE_TYPES = new Set(['at_renewal', 'at_specified_time']);

function draft(
  type: ActivityType,
  date: Date,
  old: Pricing | null,
  next: Pricing | null,
  extra: Partial<Pick<ActivityDraft, 'is_churn' | 'plan_key' | 'planned' | 'renewal'>> = {},
): ActivityDraft {
  return {
    type,
    date,
    old,
    new: next,
    old_mrr: activityMrr(old),
    new_mrr: activityMrr(next),
    is_churn: false,
    plan_key: null,
    planned: false,
    renewal: false,
    ...extra,
  };
}

/** gaps.md §8: the activities one subscription.changed makes, and the plan the subscription is left with. */
export function activitiesOfChange(event: SubscriptionChange): ChangeActivities {
  if ((event.change === 'cancelled' || event.change === 'expired') && event.cancellation_type === 'cancel_invalid') {
    return { happened: [], planned: [], dropAll: true };
  }
  return { happened: happened(event), planned: plannedActivities(event), dropAll: false };
}

function happened(event: SubscriptionChange): ActivityDraft[] {
  const { old, new: next, effective_at: at } = event;
  switch (event.change) {
    case 'activated':
      return [draft('new', at, null, next, { plan_key: START_KEY, renewal: true })];
    case 'changed':
    case 'updated': {
      if (!old || activityMrr(old).isZero()) return [];
      const type = changeActivityType(old, next);
      if (!type) return [];
      const planKey = RUNNING_CHANGE_TYPES.has(event.change_type) ? keyAt('change', at) : null;
      return [draft(type, at, old, next, { plan_key: planKey })];
    }
    case 'cancelled':
    case 'expired':
      if (!old || activityMrr(old).isZero()) return [];
      return [draft('cancel', at, old, null, { is_churn: true, plan_key: keyAt('cancel', at) })];
    case 'reactivated':
      return old?.status === 'expired' ? [draft('reactivate', at, null, next, { renewal: true })] : [];
    case 'renewed':
    case 'renewed_manually':
      return [draft('renew', at, old, next, { renewal: true })];
    default:
      return [];
  }
}

/** What the subscription's state says will happen: its start, its waiting change, its cancellation. */
function plannedActivities(event: SubscriptionChange): ActivityDraft[] {
  const s = event.subscription;
  const running = (pricing: Pricing): Pricing => ({ ...pricing, status: 'active' });
  let current = running(event.new);
  const planned: ActivityDraft[] = [];
  if (s.status === 'scheduled' && s.start_date) {
    planned.push(draft('new', s.start_date, null, current, { plan_key: START_KEY, planned: true, renewal: true }));
  }
  if (event.scheduled && s.scheduled_change_at && (!s.cancel_at || s.scheduled_change_at < s.cancel_at)) {
    const after = running(event.scheduled);
    const type = changeActivityType(current, after);
    if (type) {
      planned.push(
        draft(type, s.scheduled_change_at, current, after, {
          plan_key: keyAt('change', s.scheduled_change_at),
          planned: true,
        }),
      );
    }
    current = after;
  }
  if (s.status === 'not_renewing' && s.cancel_at) {
    planned.push(
      draft('cancel', s.cancel_at, current, null, {
        is_churn: true,
        plan_key: keyAt('cancel', s.cancel_at),
        planned: true,
      }),
    );
  }
  return planned;
}
