import { type CurrencyCode, type Decimal, money, roundToMinorUnit } from '@billing/money';

/**
 * The VAT on `subtotal` at `rate` percent: subtotal × rate / 100, rounded once to the currency's
 * minor unit, half-up (half away from zero, so a credit's VAT mirrors the charge's):
 * 200.00 at 25 → 50.00; 99.99 at 25 → 25.00 (24.9975); 1499 ISK at 24 → 360 (359.76).
 */
export function vatAmount(subtotal: Decimal | string, rate: Decimal | string, currency: CurrencyCode): Decimal {
  const percent = money(rate);
  if (percent.isNegative() || percent.greaterThan(100)) throw new RangeError(`A VAT rate is 0 to 100, got ${rate}`);
  return roundToMinorUnit(money(subtotal).times(percent).dividedBy(100), currency);
}

/** A rate as the API writes it: at least two decimals ("25" → "25.00", "25.5" → "25.50", "0" → "0.00"). */
export function formatVatRate(rate: Decimal | string): string {
  const value = money(rate);
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}
