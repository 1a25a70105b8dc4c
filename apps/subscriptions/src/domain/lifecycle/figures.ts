import { type CurrencyCode, type Decimal, formatAmount, formatExact } from '@billing/money';
import type { BaseConversion } from '../base-currency.js';
import { priceOf } from '../charges.js';
import { mrr } from '../mrr.js';
import { chargePricing, type SubscriptionPricing, type SubscriptionState } from './state.js';

export interface SubscriptionFigures {
  /** MRR of the pricing in force now, in the base currency; 0 for scheduled and expired subscriptions. */
  current_mrr: string;
  /** MRR the subscription is committed to (after its waiting change), in the base currency; 0 when it is set to end or ended. */
  committed_mrr: string;
  /** What one period costs now: discounted unit price × quantity, rounded to the minor unit. */
  final_price: string;
}

function exactMrr(pricing: SubscriptionPricing): Decimal {
  return mrr(priceOf(chargePricing(pricing)), pricing.terms.interval);
}

/**
 * The computed money fields of a subscription (api-spec Subscription: current_mrr, committed_mrr,
 * final_price). The MRRs are in the organization's base currency (`toBase`: the rate held for the
 * period; the product rounded half-up to the base currency's minor unit, gaps.md §8; no rate for
 * the subscription's currency: 0, as total-mrr counts it); without `toBase` (the organization's
 * settings not known yet) in the subscription's currency. final_price is a price: its own currency.
 */
export function subscriptionFigures(
  state: SubscriptionState,
  toBase: BaseConversion | null = null,
): SubscriptionFigures {
  const currency = state.pricing.terms.currency;
  const shown: CurrencyCode = toBase?.currency ?? currency;
  const inShown = (exact: Decimal): string => formatAmount(toBase ? exact.times(toBase.rate ?? 0) : exact, shown);
  const zero = inShown(exactMrr({ ...state.pricing, quantity: 0 }));
  const now = exactMrr(state.pricing);
  const future = state.change
    ? exactMrr({ ...state.pricing, terms: state.change.terms, quantity: state.change.quantity })
    : now;
  const live =
    state.status === 'active' || state.status === 'not_renewing' || state.status === 'pending_manual_renewal';
  const committed =
    state.status === 'active' || state.status === 'pending_manual_renewal' || state.status === 'scheduled';
  return {
    current_mrr: live ? inShown(now) : zero,
    committed_mrr: committed ? inShown(future) : zero,
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
