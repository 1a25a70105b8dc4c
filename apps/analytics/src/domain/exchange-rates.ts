// The rate lookup is shared with the subscriptions service (its current_mrr / committed_mrr).
export { type ExchangeRate, rateOn } from '@billing/money';

/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with
 * it (it was 8 % of analytics' busy time in the billing run, one per rated moment). A zone Intl
 * rejects throws on construction, so it is never cached and throws on every call, as before.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormatOf(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar day of `moment` in `timeZone`, as YYYY-MM-DD. */
export function localDay(moment: Date, timeZone: string): string {
  return dayFormatOf(timeZone).format(moment);
}
