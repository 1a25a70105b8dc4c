import type { FieldViolation } from '@billing/errors';
import { isCurrencyCode } from '@billing/reference-data';

/**
 * An exchange rate of an organization (gaps.md §8, §10): `rate` units of the base currency for one
 * unit of `currency`, applying from `valid_from` (YYYY-MM-DD on the organization's wall clock).
 */
export interface ExchangeRate {
  currency: string;
  rate: string;
  valid_from: string;
}

const RATE = /^(?:0|[1-9]\d{0,9})(?:\.\d{1,10})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** What is wrong with a rate of an organization whose base currency is `base` (named by option). */
export function validateExchangeRate(rate: ExchangeRate, base: string): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (!isCurrencyCode(rate.currency)) {
    violations.push({ field: 'currency', description: `"${rate.currency}" is not a supported currency code.` });
  } else if (rate.currency === base) {
    violations.push({ field: 'currency', description: `${base} is the base currency: its rate is always 1.` });
  }
  if (!RATE.test(rate.rate) || Number(rate.rate) <= 0) {
    violations.push({
      field: 'rate',
      description: 'Enter a positive decimal with at most 10 digits before and 10 after the point.',
    });
  }
  if (!isCalendarDate(rate.valid_from)) violations.push({ field: 'from', description: 'Enter a date as YYYY-MM-DD.' });
  return violations;
}

/** The rates with `rate` set: it replaces the rate of its currency from the same day; ordered by currency, then day. */
export function withExchangeRate(rates: readonly ExchangeRate[], rate: ExchangeRate): ExchangeRate[] {
  return [...rates.filter((r) => r.currency !== rate.currency || r.valid_from !== rate.valid_from), rate].sort(
    (a, b) => a.currency.localeCompare(b.currency) || a.valid_from.localeCompare(b.valid_from),
  );
}
