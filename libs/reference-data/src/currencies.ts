/** Currencies the API accepts (the contract's set, in its order). */
export const CURRENCY_CODES = [
  'DKK',
  'EUR',
  'USD',
  'GBP',
  'NZD',
  'CHF',
  'PLN',
  'SEK',
  'NOK',
  'ISK',
  'AUD',
  'CAD',
  'CZK',
] as const;

export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** Minor units (ISO 4217): amounts in that currency round to this many decimals. */
export const CURRENCY_MINOR_UNITS: Readonly<Record<CurrencyCode, number>> = {
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
};

export const isCurrencyCode = (value: string): value is CurrencyCode => Object.hasOwn(CURRENCY_MINOR_UNITS, value);

export const minorUnits = (currency: CurrencyCode): number => CURRENCY_MINOR_UNITS[currency];
