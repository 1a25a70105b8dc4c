/** An organization's exchange rate: `rate` units of its base currency for one `currency`, from `valid_from`. */
export interface ExchangeRate {
  currency: string;
  /** Decimal as text. */
  rate: string;
  /** YYYY-MM-DD, the organization's day the rate applies from. */
  valid_from: string;
}

/**
 * The rate of `currency` in force on `date` (YYYY-MM-DD): the one with the latest `valid_from` on
 * or before that day; null when the organization has none yet (gaps.md §8: exchange rates are
 * organization settings with the date they apply from).
 */
export function exchangeRateOn(rates: readonly ExchangeRate[], currency: string, date: string): string | null {
  let found: ExchangeRate | null = null;
  for (const rate of rates) {
    if (rate.currency !== currency || rate.valid_from > date) continue;
    if (found === null || rate.valid_from > found.valid_from) found = rate;
  }
  return found?.rate ?? null;
}
