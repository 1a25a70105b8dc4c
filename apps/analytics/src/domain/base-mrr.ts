import { type CurrencyCode, type Decimal, roundToMinorUnit } from '@billing/money';

/**
 * gaps.md §8: an MRR in the organization's base currency: the exact MRR × the rate held
 * (base currency per unit), rounded half-up to the base currency's minor unit. Null when no rate
 * is known for the subscription's currency.
 */
export function toBaseMrr(exact: Decimal, rate: Decimal | null, base: CurrencyCode): Decimal | null {
  if (rate === null) return null;
  return roundToMinorUnit(exact.times(rate), base);
}
