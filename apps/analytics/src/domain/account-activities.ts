import { type Decimal, MoneyDecimal } from '@billing/money';
import type { AccountActivityType } from '@billing/reference-data';

/** One MRR movement of one of the account's subscriptions (base currency), in time order. */
export interface MrrMovement {
  /** The activity's uuid. */
  source: string;
  /** The subscription it moves (null for a manual activity without one: counted on its own). */
  subscription: string | null;
  date: Date;
  new_mrr: Decimal | null;
  /** The churn reason to name when this movement churns the account. */
  churn_reason: string;
}

export interface AccountActivityDraft {
  source: string;
  subscription: string | null;
  type: AccountActivityType;
  date: Date;
  old_mrr: Decimal;
  new_mrr: Decimal;
  mrr_change: Decimal;
  churn_reason: string;
}

/**
 * gaps.md §8: account activities follow the account's MRR (the sum over its subscriptions) at
 * each movement that changes it: 0 → more is new_business the first time and reactivation after
 * a churn; up is expansion; down but above 0 contraction; down to 0 churn (with its reason).
 * `movements` must be in time order (date, then the order they were recorded).
 */
export function deriveAccountActivities(movements: readonly MrrMovement[]): AccountActivityDraft[] {
  const bySubscription = new Map<string, Decimal>();
  let total: Decimal = new MoneyDecimal(0);
  let started = false;
  const drafts: AccountActivityDraft[] = [];
  for (const movement of movements) {
    const key = movement.subscription ?? `activity:${movement.source}`;
    const next = movement.new_mrr ?? new MoneyDecimal(0);
    const previous = bySubscription.get(key) ?? new MoneyDecimal(0);
    bySubscription.set(key, next);
    const after = total.minus(previous).plus(next);
    const before = total;
    total = after;
    if (after.equals(before)) continue;
    let type: AccountActivityType;
    if (before.isZero()) {
      type = started ? 'reactivation' : 'new_business';
      started = true;
    } else if (after.greaterThan(before)) type = 'expansion';
    else if (after.isZero()) type = 'churn';
    else type = 'contraction';
    drafts.push({
      source: movement.source,
      subscription: movement.subscription,
      type,
      date: movement.date,
      old_mrr: before,
      new_mrr: after,
      mrr_change: after.minus(before),
      churn_reason: type === 'churn' ? movement.churn_reason : '',
    });
  }
  return drafts;
}
