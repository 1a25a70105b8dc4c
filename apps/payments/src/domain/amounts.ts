import { type CurrencyCode, currencyDecimals, money } from '@billing/money';

/**
 * An amount in the currency's minor unit, as gateways count (cardgw_a: "amount in cents"): 100.50
 * DKK is 10050, 1000 ISK is 1000. The invoice's balance is already rounded to the minor unit; a
 * finer amount is refused rather than rounded, since a charge must be exactly what is owed.
 */
export function toMinorUnits(amount: string, currency: string): bigint {
  const decimals = currencyDecimals(currency as CurrencyCode);
  const scaled = money(amount).times(money('10').pow(decimals));
  if (!scaled.isInteger()) throw new Error(`${amount} ${currency} is finer than the currency's minor unit`);
  return BigInt(scaled.toFixed(0));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local calendar day (YYYY-MM-DD) of an instant in the organization's time zone. */
export function localDate(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}
