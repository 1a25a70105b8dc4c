import { type Decimal, MoneyDecimal, money } from './money.js';

/** An organization setting: `rate` units of the base currency for one `currency`, from `valid_from` on. */
export interface ExchangeRate {
  currency: string;
  rate: string;
  /** YYYY-MM-DD in the organization's time zone. */
  valid_from: string;
}

/**
 * The rate that applies on `day` (YYYY-MM-DD, organization's time zone): 1 for the base currency,
 * else the latest rate of that currency valid from that day or earlier; null when there is none.
 */
export function rateOn(
  rates: readonly ExchangeRate[],
  currency: string,
  baseCurrency: string,
  day: string,
): Decimal | null {
  if (currency === baseCurrency) return new MoneyDecimal(1);
  let best: ExchangeRate | null = null;
  for (const rate of rates) {
    if (rate.currency !== currency || rate.valid_from > day) continue;
    if (!best || rate.valid_from >= best.valid_from) best = rate;
  }
  return best ? money(best.rate) : null;
}
