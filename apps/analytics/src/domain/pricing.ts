import { type Decimal, MoneyDecimal, money } from '@billing/money';

/** What a subscription pays at one moment, as subscription.changed states it (gaps.md §8). */
export interface Pricing {
  terms: string;
  plan: string;
  status: string;
  quantity: number;
  currency: string;
  /** The terms price or the override (before contract discounts). */
  unit_price: string;
  /** Exact MRR in `currency` (discounted unit price × quantity × monthly factor). */
  mrr: string;
}

/**
 * Statuses whose pricing counts as MRR in activities. gaps.md §8: only active and not_renewing
 * subscriptions have MRR now; a pending_manual_renewal subscription keeps its MRR in activities
 * (it is counted apart in total-mrr) until it is renewed or ends, so its end is a churn.
 */
const MRR_STATUSES = new Set(['active', 'not_renewing', 'pending_manual_renewal']);

/** The exact MRR an activity records for a pricing: 0 when the status has none (scheduled, expired). */
export function activityMrr(pricing: Pricing | null): Decimal {
  if (!pricing || !MRR_STATUSES.has(pricing.status)) return new MoneyDecimal(0);
  return money(pricing.mrr);
}
