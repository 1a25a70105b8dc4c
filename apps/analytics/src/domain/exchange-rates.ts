// The rate lookup is shared with the subscriptions service (its current_mrr / committed_mrr).
export { type ExchangeRate, rateOn } from '@billing/money';

/** The calendar day of `moment` in `timeZone`, as YYYY-MM-DD. */
export function localDay(moment: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    moment,
  );
}
