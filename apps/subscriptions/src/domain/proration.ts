import { type CurrencyCode, type Decimal, money, roundToMinorUnit } from '@billing/money';
import type { PriceBreakdown } from './pricing.js';

/**
 * gaps §6: amount × days / days in period, rounded once to the currency's minor unit, half-up
 * (half away from zero, so a credit is the exact mirror of the charge it reverses).
 * `days` are local calendar days in the organization's time zone (see daysUsedAndRemaining).
 */
export function prorate(amount: Decimal | string, days: number, periodDays: number, currency: CurrencyCode): Decimal {
  if (!Number.isSafeInteger(periodDays) || periodDays < 1)
    throw new RangeError(`periodDays must be >= 1, got ${periodDays}`);
  if (!Number.isSafeInteger(days) || days < 0 || days > periodDays) {
    throw new RangeError(`days must be an integer from 0 to ${periodDays}, got ${days}`);
  }
  return roundToMinorUnit(money(amount).times(days).dividedBy(periodDays), currency);
}

/**
 * A priced line for `days` of a `periodDays` period. The amount prorated is the EXACT line amount
 * (discounted_unit_price × quantity, before the line's own rounding), so there is one rounding per
 * line. A full period (days = periodDays) gives exactly the breakdown's subtotal.
 */
export function proratedLineAmount(price: PriceBreakdown, days: number, periodDays: number): Decimal {
  return prorate(price.discounted_unit_price.times(price.quantity), days, periodDays, price.currency);
}
