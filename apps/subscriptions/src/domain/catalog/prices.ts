import { Decimal } from 'decimal.js';

/**
 * A stored price as the API shows it: the exact value with at least two decimal places, trailing
 * zeros beyond the second dropped ("100" -> "100.00", "9.995000" -> "9.995").
 */
export function presentPrice(stored: string): string {
  const value = new Decimal(stored);
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

/** The API's price for the column: the validated text as an exact decimal. */
export function storedPrice(price: string): string {
  return new Decimal(price).toFixed();
}
