import {
  addDays,
  assertLocalDate,
  compareLocalDates,
  daysBetween,
  daysInMonth,
  formatLocalDate,
  fromLocal,
  type LocalDate,
  localDateOf,
  parseLocalDate,
  toLocal,
} from './local-time.js';

export const INTERVAL_TYPES = ['day', 'week', 'month', 'year'] as const;
export type IntervalType = (typeof INTERVAL_TYPES)[number];

/** A plan terms' billing interval: `interval_type` and `interval_count` (at least 1). */
export interface Interval {
  type: IntervalType;
  count: number;
}

/**
 * What every renewal of a subscription is computed from: the base instant (`base_renewal_date`)
 * and the organization's time zone. Renewals keep the base's local day of month and local
 * time of day in that zone.
 */
export interface RenewalBase {
  instant: Date;
  timeZone: string;
}

/** One billing period: the n-th (0 = the one starting at the base). */
export interface PeriodBounds {
  n: number;
  /** The renewal instant that opens the period. */
  start: Date;
  /** The next renewal instant (exclusive end). */
  end: Date;
  /** Local calendar day of `start`, 'YYYY-MM-DD' (invoice line `date_from`). */
  dateFrom: string;
  /** The local day before the next renewal, 'YYYY-MM-DD' (invoice line `date_to`). */
  dateTo: string;
  /** Local calendar days in the period (dateFrom..dateTo inclusive). */
  days: number;
}

export function assertInterval(interval: Interval): void {
  if (!INTERVAL_TYPES.includes(interval.type)) throw new RangeError(`Unknown interval type: ${interval.type}`);
  if (!Number.isSafeInteger(interval.count) || interval.count < 1) {
    throw new RangeError(`interval_count must be an integer of at least 1, got ${interval.count}`);
  }
}

function assertN(n: number): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`n must be an integer, got ${n}`);
}

/**
 * The calendar day of the n-th renewal: `base` plus n intervals, always counted from the base
 * (never from a previous, clamped renewal). Months and years keep the base's day of month and
 * clamp it to the month's last day: base 31 Jan monthly → 28 Feb (29 in leap years), 31 Mar,
 * 30 Apr; base 29 Feb yearly → 28 Feb, ..., 29 Feb again in the next leap year.
 * n may be negative (periods before the base).
 */
export function addIntervals(base: LocalDate, interval: Interval, n: number): LocalDate {
  assertLocalDate(base);
  assertInterval(interval);
  assertN(n);
  const steps = n * interval.count;
  switch (interval.type) {
    case 'day':
      return addDays(base, steps);
    case 'week':
      return addDays(base, 7 * steps);
    case 'month': {
      const months = base.year * 12 + (base.month - 1) + steps;
      const year = Math.floor(months / 12);
      const month = months - year * 12 + 1;
      return { year, month, day: Math.min(base.day, daysInMonth(year, month)) };
    }
    case 'year': {
      const year = base.year + steps;
      return { year, month: base.month, day: Math.min(base.day, daysInMonth(year, base.month)) };
    }
  }
}

/**
 * The n-th renewal instant: the calendar day of `addIntervals` at the base's local time of day in
 * the organization's zone (so DST never moves a renewal: 10:00 stays 10:00 local). A time of day
 * that does not exist on that day (spring-forward gap) is moved forward by the gap; a repeated one
 * (fall-back) takes the earlier instant.
 */
export function nthRenewal(base: RenewalBase, interval: Interval, n: number): Date {
  const local = toLocal(base.instant, base.timeZone);
  const date = addIntervals(local, interval, n);
  return fromLocal({ ...local, ...date }, base.timeZone);
}

/** The n-th period: from the n-th renewal to the (n+1)-th. */
export function periodBounds(base: RenewalBase, interval: Interval, n: number): PeriodBounds {
  const baseDate = localDateOf(base.instant, base.timeZone);
  const from = addIntervals(baseDate, interval, n);
  const next = addIntervals(baseDate, interval, n + 1);
  return {
    n,
    start: nthRenewal(base, interval, n),
    end: nthRenewal(base, interval, n + 1),
    dateFrom: formatLocalDate(from),
    dateTo: formatLocalDate(addDays(next, -1)),
    days: daysBetween(from, next),
  };
}

/** Rough number of whole intervals from `from` to `to` (a starting guess, corrected by the caller). */
function estimateN(from: LocalDate, to: LocalDate, interval: Interval): number {
  switch (interval.type) {
    case 'day':
      return Math.floor(daysBetween(from, to) / interval.count);
    case 'week':
      return Math.floor(daysBetween(from, to) / (7 * interval.count));
    case 'month':
      return Math.floor((to.year * 12 + to.month - (from.year * 12 + from.month)) / interval.count);
    case 'year':
      return Math.floor((to.year - from.year) / interval.count);
  }
}

/**
 * The period that contains `instant` (start <= instant < end). Instants before the base give
 * negative n; callers that must not charge before the start check `n >= 0`.
 */
export function periodContaining(base: RenewalBase, interval: Interval, instant: Date): PeriodBounds {
  assertInterval(interval);
  if (Number.isNaN(instant.getTime())) throw new RangeError('Invalid Date');
  let n = estimateN(localDateOf(base.instant, base.timeZone), localDateOf(instant, base.timeZone), interval);
  while (nthRenewal(base, interval, n).getTime() > instant.getTime()) n -= 1;
  while (nthRenewal(base, interval, n + 1).getTime() <= instant.getTime()) n += 1;
  return periodBounds(base, interval, n);
}

/**
 * The same local time of day `days` calendar days earlier (or later, for negative `days`):
 * a forward-charging period is invoiced `pre_renewal_days_offset` days before its start.
 */
export function shiftLocalDays(instant: Date, days: number, timeZone: string): Date {
  assertN(days);
  const local = toLocal(instant, timeZone);
  return fromLocal({ ...local, ...addDays(local, -days) }, timeZone);
}

/**
 * Used and remaining local calendar days of `period` at `at`. The day on which `at` falls counts
 * as REMAINING (it is the first day of the new situation): a change on day 11 of a 28-day period
 * has used 10 days (days 1-10) and has 18 remaining (days 11-28). Clamped to the period: before
 * its start nothing is used, from its last day's end on nothing remains.
 */
export function daysUsedAndRemaining(
  period: PeriodBounds,
  at: Date,
  timeZone: string,
): { used: number; remaining: number; days: number } {
  const day = localDateOf(at, timeZone);
  const from = parseLocalDate(period.dateFrom);
  let used: number;
  if (at.getTime() <= period.start.getTime() || compareLocalDates(day, from) <= 0) used = 0;
  else if (at.getTime() >= period.end.getTime()) used = period.days;
  else used = Math.min(daysBetween(from, day), period.days);
  return { used, remaining: period.days - used, days: period.days };
}
