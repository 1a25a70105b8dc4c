import { type CurrencyCode, type Decimal, MoneyDecimal, money, roundToMinorUnit } from '@billing/money';
import { assertInterval, type Interval } from './periods.js';
import type { PriceBreakdown } from './pricing.js';

/**
 * gaps §8: the monthly factor of an interval as an exact fraction:
 * n months 1/n, n years 1/(12n), n weeks 52/(12n), n days 365/(12n).
 */
export function monthlyFactor(interval: Interval): { numerator: number; denominator: number } {
  assertInterval(interval);
  const n = interval.count;
  switch (interval.type) {
    case 'month':
      return { numerator: 1, denominator: n };
    case 'year':
      return { numerator: 1, denominator: 12 * n };
    case 'week':
      return { numerator: 52, denominator: 12 * n };
    case 'day':
      return { numerator: 365, denominator: 12 * n };
  }
}

/**
 * MRR of a subscription in its own currency: unit price after override and discounts × quantity
 * × monthly factor. EXACT (unrounded, 40 significant digits): sums and currency conversion are
 * done on exact values; round only when presenting (mrrForDisplay).
 */
export function mrr(price: Pick<PriceBreakdown, 'discounted_unit_price' | 'quantity'>, interval: Interval): Decimal {
  const { numerator, denominator } = monthlyFactor(interval);
  return money(price.discounted_unit_price).times(price.quantity).times(numerator).dividedBy(denominator);
}

/** MRR as presented: rounded to the currency's minor unit, half-up (only at presentation time). */
export function mrrForDisplay(value: Decimal, currency: CurrencyCode): Decimal {
  return roundToMinorUnit(value, currency);
}

/** Zero MRR (expired, cancelled, pending manual renewal counted elsewhere). */
export const ZERO_MRR: Decimal = new MoneyDecimal(0);
