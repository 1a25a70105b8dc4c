import { type Decimal, formatAmount, formatExact } from '@billing/money';
import { priceOf } from '../charges.js';
import { mrr } from '../mrr.js';
import { chargePricing, type SubscriptionPricing, type SubscriptionState } from './state.js';

export interface SubscriptionFigures {
  /** MRR of the pricing in force now; 0 for scheduled and expired subscriptions. */
  current_mrr: string;
  /** MRR the subscription is committed to: after its waiting change; 0 when it is set to end or ended. */
  committed_mrr: string;
  /** What one period costs now: discounted unit price × quantity, rounded to the minor unit. */
  final_price: string;
}

function exactMrr(pricing: SubscriptionPricing): Decimal {
  return mrr(priceOf(chargePricing(pricing)), pricing.terms.interval);
}

/** The computed money fields of a subscription (api-spec Subscription: current_mrr, committed_mrr, final_price). */
export function subscriptionFigures(state: SubscriptionState): SubscriptionFigures {
  const currency = state.pricing.terms.currency;
  const zero = formatAmount(exactMrr({ ...state.pricing, quantity: 0 }), currency);
  const now = exactMrr(state.pricing);
  const future = state.change
    ? exactMrr({ ...state.pricing, terms: state.change.terms, quantity: state.change.quantity })
    : now;
  const live =
    state.status === 'active' || state.status === 'not_renewing' || state.status === 'pending_manual_renewal';
  const committed =
    state.status === 'active' || state.status === 'pending_manual_renewal' || state.status === 'scheduled';
  return {
    current_mrr: live ? formatAmount(now, currency) : zero,
    committed_mrr: committed ? formatAmount(future, currency) : zero,
    final_price: formatAmount(priceOf(chargePricing(state.pricing)).subtotal, currency),
  };
}

/** Exact MRR and unit prices for the subscription.changed event (analytics rounds, not us). */
export function pricingFigures(pricing: SubscriptionPricing): {
  unit_price: string;
  discounted_unit_price: string;
  mrr: string;
} {
  const price = priceOf(chargePricing(pricing));
  return {
    unit_price: formatExact(price.unit_price),
    discounted_unit_price: formatExact(price.discounted_unit_price),
    mrr: formatExact(exactMrr(pricing)),
  };
}
