import { MoneyDecimal } from '@billing/money';

// Stored decimals (numeric columns read back as text) as the API shows them, and the API's decimals
// as they are stored: text and decimal.js only, never a JS number.

/** numeric(…, 6) text → the currency's decimals are what was stored rounded: trim to at least two. */
export function presentAmount(stored: string, decimals: number): string {
  const negative = stored.startsWith('-');
  const [whole, fraction = ''] = (negative ? stored.slice(1) : stored).split('.');
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  const text = decimals > 0 ? `${whole}.${kept}` : whole!;
  return negative && !/^[0.]+$/.test(text) ? `-${text}` : text;
}

/** Exact decimals without trailing zeros ("100.000000000000" → "100", "29.997" stays). */
export function presentExact(stored: string): string {
  if (!stored.includes('.')) return stored;
  return stored.replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * A stored decimal as the API shows it: the exact value with at least two decimal places, trailing
 * zeros beyond the second dropped ("2" → "2.00", "9.995000" → "9.995"), as plan terms prices are.
 */
export function presentDecimal(stored: string): string {
  const value = new MoneyDecimal(stored);
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

/** The validated text as the exact decimal for its numeric column ("10.50" → "10.5"). */
export function storedDecimal(value: string): string {
  return new MoneyDecimal(value).toFixed();
}
