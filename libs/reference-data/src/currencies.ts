/** Currencies the API accepts, with their minor units (ISO 4217): amounts round to these. */
export const CURRENCY_MINOR_UNITS = {
  DKK: 2,
  EUR: 2,
  USD: 2,
  GBP: 2,
  NZD: 2,
  CHF: 2,
  PLN: 2,
  SEK: 2,
  NOK: 2,
  ISK: 0,
  AUD: 2,
  CAD: 2,
  CZK: 2,
} as const;

export type CurrencyCode = keyof typeof CURRENCY_MINOR_UNITS;

export const CURRENCY_CODES = Object.keys(CURRENCY_MINOR_UNITS) as readonly CurrencyCode[];

export const isCurrencyCode = (value: string): value is CurrencyCode => Object.hasOwn(CURRENCY_MINOR_UNITS, value);

export const minorUnits = (currency: CurrencyCode): number => CURRENCY_MINOR_UNITS[currency];
