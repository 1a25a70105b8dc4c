import { type CurrencyCode, isCurrencyCode, minorUnits } from '@billing/reference-data';
import { Decimal } from 'decimal.js';

export type { CurrencyCode } from '@billing/reference-data';
export { Decimal } from 'decimal.js';

/**
 * The Decimal constructor every amount of this library is made with: 40 significant digits
 * (the global default is 20), so that products such as `price × quantity × days` stay exact for
 * any amount the platform stores (NUMERIC(28, 8)) before the single rounding at the end.
 * Rounding inside arithmetic (only divisions are ever inexact) is half-up as well.
 * Instances are ordinary `Decimal`s: `money(x) instanceof Decimal` holds and they mix freely.
 */
export const MoneyDecimal: typeof Decimal = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});

/** Plain decimal notation: optional minus, digits, optional fraction. No exponent, no plus sign, no spaces. */
const DECIMAL_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** True when `value` is a decimal string this platform accepts ("12", "12.50", "-0.005", "0"). */
export function isDecimalString(value: string): boolean {
  return DECIMAL_PATTERN.test(value);
}

export class InvalidAmountError extends Error {
  constructor(readonly value: string) {
    super(`Not a valid decimal amount: ${JSON.stringify(value)}`);
    this.name = 'InvalidAmountError';
  }
}

/**
 * A money amount as a Decimal. Strings must be plain decimal notation (see `isDecimalString`);
 * anything else (exponents, "NaN", "Infinity", "", " 1") throws InvalidAmountError.
 * A Decimal is re-made with MoneyDecimal (same value) and must be finite.
 */
export function money(value: string | Decimal): Decimal {
  if (typeof value === 'string') {
    if (!isDecimalString(value)) throw new InvalidAmountError(value);
    return new MoneyDecimal(value);
  }
  if (!value.isFinite()) throw new InvalidAmountError(value.toString());
  return new MoneyDecimal(value);
}

/** `money(value)` or null when the string is not a valid decimal (for validation code paths). */
export function parseAmount(value: string): Decimal | null {
  return isDecimalString(value) ? new MoneyDecimal(value) : null;
}

/** The number of decimals of the currency (ISK 0, every other supported currency 2). */
export function currencyDecimals(currency: CurrencyCode): number {
  if (!isCurrencyCode(currency)) throw new RangeError(`Unknown currency: ${String(currency)}`);
  return minorUnits(currency);
}

/**
 * Rounds to the currency's minor unit, half-up in the sense of "half away from zero":
 * 0.005 → 0.01 and -0.005 → -0.01 (a credit is the exact mirror of the charge it reverses).
 */
export function roundToMinorUnit(amount: Decimal, currency: CurrencyCode): Decimal {
  const rounded = money(amount).toDecimalPlaces(currencyDecimals(currency), Decimal.ROUND_HALF_UP);
  // Never a negative zero: -0.001 rounds to 0.
  return rounded.isZero() ? new MoneyDecimal(0) : rounded;
}

/**
 * The amount rounded to the currency's minor unit and written with exactly that many decimals:
 * "200.00", "-128.57", "1500" (ISK). Never an exponent, never "-0.00".
 */
export function formatAmount(amount: Decimal, currency: CurrencyCode): string {
  return roundToMinorUnit(amount, currency).toFixed(currencyDecimals(currency));
}

/** Writes an exact (unrounded) amount in plain notation without trailing zeros: "29.997", "-0.5", "100". */
export function formatExact(amount: Decimal): string {
  const value = money(amount);
  return value.isZero() ? '0' : value.toFixed();
}

/** Sum of amounts (0 for none), exact. */
export function sum(amounts: readonly Decimal[]): Decimal {
  return amounts.reduce<Decimal>((total, amount) => total.plus(amount), new MoneyDecimal(0));
}
