import { describe, expect, it } from 'vitest';
import { fromLocal, parseLocalDate, toLocal } from './local-time.js';
import {
  addIntervals,
  daysUsedAndRemaining,
  type Interval,
  nthRenewal,
  periodBounds,
  periodContaining,
  type RenewalBase,
  shiftLocalDays,
} from './periods.js';

const CPH = 'Europe/Copenhagen';
const monthly: Interval = { type: 'month', count: 1 };
/** A base at a local wall-clock time in Copenhagen: '2026-01-15T10:00'. */
const cph = (local: string): Date => {
  const [date = '', time = '00:00'] = local.split('T');
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return fromLocal({ ...parseLocalDate(date), hour, minute, second: 0, millisecond: 0 }, CPH);
};
const base = (local: string, timeZone = CPH): RenewalBase => ({ instant: cph(local), timeZone });
const dates = (b: RenewalBase, interval: Interval, count: number) =>
  Array.from({ length: count }, (_, n) => periodBounds(b, interval, n).dateFrom);
const localString = (instant: Date, zone = CPH) => {
  const l = toLocal(instant, zone);
  const p = (v: number) => String(v).padStart(2, '0');
  return `${l.year}-${p(l.month)}-${p(l.day)}T${p(l.hour)}:${p(l.minute)}`;
};

describe('addIntervals (calendar days of renewals)', () => {
  const d = parseLocalDate;
  const add = (date: string, interval: Interval, n: number) => {
    const r = addIntervals(d(date), interval, n);
    return `${r.year}-${String(r.month).padStart(2, '0')}-${String(r.day).padStart(2, '0')}`;
  };

  it('keeps the base day of month and clamps to month end, always from the base', () => {
    expect([1, 2, 3, 4].map((n) => add('2026-01-31', monthly, n))).toEqual([
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
    expect(add('2028-01-31', monthly, 1)).toBe('2028-02-29');
    expect([1, 2].map((n) => add('2026-01-30', monthly, n))).toEqual(['2026-02-28', '2026-03-30']);
    expect([1, 2, 3].map((n) => add('2026-03-31', monthly, n))).toEqual(['2026-04-30', '2026-05-31', '2026-06-30']);
    expect(add('2026-12-15', monthly, 1)).toBe('2027-01-15');
    expect(add('2026-01-15', monthly, -1)).toBe('2025-12-15');
    expect(add('2026-03-31', monthly, -1)).toBe('2026-02-28');
  });

  it('handles interval_count for every interval type', () => {
    expect(add('2026-01-31', { type: 'month', count: 3 }, 1)).toBe('2026-04-30');
    expect(add('2026-01-31', { type: 'month', count: 3 }, 2)).toBe('2026-07-31');
    expect(add('2026-11-30', { type: 'month', count: 14 }, 1)).toBe('2028-01-30');
    expect(add('2026-01-31', { type: 'day', count: 1 }, 1)).toBe('2026-02-01');
    expect(add('2026-02-20', { type: 'day', count: 10 }, 1)).toBe('2026-03-02');
    expect(add('2026-12-28', { type: 'week', count: 1 }, 1)).toBe('2027-01-04');
    expect(add('2026-01-01', { type: 'week', count: 2 }, 3)).toBe('2026-02-12');
    expect(add('2028-02-29', { type: 'year', count: 1 }, 1)).toBe('2029-02-28');
    expect(add('2028-02-29', { type: 'year', count: 1 }, 4)).toBe('2032-02-29');
    expect(add('2026-06-30', { type: 'year', count: 2 }, 1)).toBe('2028-06-30');
  });

  it('refuses bad intervals and n', () => {
    expect(() => add('2026-01-01', { type: 'month', count: 0 }, 1)).toThrow(RangeError);
    expect(() => add('2026-01-01', { type: 'month', count: 1.5 }, 1)).toThrow(RangeError);
    expect(() => add('2026-01-01', { type: 'fortnight' as never, count: 1 }, 1)).toThrow(RangeError);
    expect(() => add('2026-01-01', monthly, 0.5)).toThrow(RangeError);
  });
});

describe('periods in the organization time zone (issue 3 acceptance)', () => {
  it('monthly from 15 Jan 2026: 15 Jan – 14 Feb, next renewal 15 Feb, then 15 Feb – 14 Mar', () => {
    const b = base('2026-01-15T10:00');
    const first = periodBounds(b, monthly, 0);
    expect(first).toEqual({
      n: 0,
      start: new Date('2026-01-15T09:00:00.000Z'),
      end: new Date('2026-02-15T09:00:00.000Z'),
      dateFrom: '2026-01-15',
      dateTo: '2026-02-14',
      days: 31,
    });
    const second = periodBounds(b, monthly, 1);
    expect([second.dateFrom, second.dateTo, second.days]).toEqual(['2026-02-15', '2026-03-14', 28]);
    expect(second.start).toEqual(first.end);
  });

  it('start 31 Jan monthly: renewals on 28 Feb (29 in 2028), 31 Mar, 30 Apr', () => {
    expect(dates(base('2026-01-31T10:00'), monthly, 5)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
    expect(dates(base('2028-01-31T10:00'), monthly, 4)).toEqual([
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
    ]);
    const feb = periodBounds(base('2026-01-31T10:00'), monthly, 1);
    expect([feb.dateFrom, feb.dateTo, feb.days]).toEqual(['2026-02-28', '2026-03-30', 31]);
    expect(dates(base('2026-01-30T10:00'), monthly, 3)).toEqual(['2026-01-30', '2026-02-28', '2026-03-30']);
  });

  it('DST does not move renewals: 10:00 local stays 10:00 local', () => {
    const b = base('2026-03-15T10:00');
    expect(b.instant.toISOString()).toBe('2026-03-15T09:00:00.000Z');
    expect(nthRenewal(b, monthly, 1).toISOString()).toBe('2026-04-15T08:00:00.000Z');
    expect(localString(nthRenewal(b, monthly, 1))).toBe('2026-04-15T10:00');
    expect(nthRenewal(b, monthly, 8).toISOString()).toBe('2026-11-15T09:00:00.000Z');
    // Daily renewals over the spring-forward night keep midnight local.
    const daily = base('2026-03-28T00:00');
    expect(localString(nthRenewal(daily, { type: 'day', count: 1 }, 1))).toBe('2026-03-29T00:00');
    expect(localString(nthRenewal(daily, { type: 'day', count: 1 }, 2))).toBe('2026-03-30T00:00');
    const p = periodBounds(daily, { type: 'day', count: 1 }, 1);
    expect(p.end.getTime() - p.start.getTime()).toBe(23 * 3_600_000); // a 23-hour day is still 1 day
    expect(p.days).toBe(1);
  });

  it('moves a base time that falls into a DST gap forward on that day only', () => {
    const b = base('2026-02-28T02:30');
    expect(localString(nthRenewal(b, { type: 'day', count: 1 }, 29))).toBe('2026-03-29T03:30');
    expect(localString(nthRenewal(b, { type: 'day', count: 1 }, 30))).toBe('2026-03-30T02:30');
  });

  it('computes in the organization time zone, not UTC', () => {
    // 31 Jan 23:30 in Copenhagen is 22:30Z; in UTC it would still be 31 Jan, in Tokyo 1 Feb.
    const instant = new Date('2026-01-31T22:30:00Z');
    expect(dates({ instant, timeZone: CPH }, monthly, 2)).toEqual(['2026-01-31', '2026-02-28']);
    expect(dates({ instant, timeZone: 'Asia/Tokyo' }, monthly, 2)).toEqual(['2026-02-01', '2026-03-01']);
    expect(localString(nthRenewal({ instant, timeZone: 'America/New_York' }, monthly, 2), 'America/New_York')).toBe(
      '2026-03-31T17:30',
    );
  });
});

describe('periodContaining', () => {
  const b = base('2026-01-31T10:00');

  it('finds the period whose start <= instant < end', () => {
    expect(periodContaining(b, monthly, cph('2026-01-31T10:00')).n).toBe(0);
    expect(periodContaining(b, monthly, cph('2026-02-28T09:59')).n).toBe(0);
    expect(periodContaining(b, monthly, cph('2026-02-28T10:00')).n).toBe(1);
    expect(periodContaining(b, monthly, cph('2026-03-30T23:00')).n).toBe(1);
    expect(periodContaining(b, monthly, cph('2026-03-31T10:00')).dateFrom).toBe('2026-03-31');
    expect(periodContaining(b, monthly, cph('2027-01-31T09:00')).dateFrom).toBe('2026-12-31');
    expect(periodContaining(b, monthly, cph('2026-01-01T00:00')).n).toBe(-1);
  });

  it('agrees with periodBounds for every interval type over many periods', () => {
    const intervals: Interval[] = [
      { type: 'day', count: 1 },
      { type: 'day', count: 10 },
      { type: 'week', count: 2 },
      { type: 'month', count: 1 },
      { type: 'month', count: 3 },
      { type: 'year', count: 1 },
    ];
    for (const interval of intervals) {
      for (let n = 0; n < 15; n += 1) {
        const p = periodBounds(b, interval, n);
        expect(periodContaining(b, interval, p.start).n).toBe(n);
        expect(periodContaining(b, interval, new Date(p.end.getTime() - 1)).n).toBe(n);
        expect(p.days).toBeGreaterThan(0);
      }
    }
  });
});

describe('shiftLocalDays and daysUsedAndRemaining', () => {
  it('moves by local calendar days at the same local time', () => {
    expect(localString(shiftLocalDays(cph('2026-04-02T10:00'), 5, CPH))).toBe('2026-03-28T10:00');
    expect(localString(shiftLocalDays(cph('2026-03-28T10:00'), -5, CPH))).toBe('2026-04-02T10:00');
  });

  it('day 11 of a 28-day period: 10 used, 18 remaining', () => {
    const period = periodBounds(base('2026-02-01T00:00'), monthly, 0);
    expect([period.dateFrom, period.dateTo, period.days]).toEqual(['2026-02-01', '2026-02-28', 28]);
    expect(daysUsedAndRemaining(period, cph('2026-02-11T00:00'), CPH)).toEqual({ used: 10, remaining: 18, days: 28 });
    expect(daysUsedAndRemaining(period, cph('2026-02-11T23:59'), CPH)).toEqual({ used: 10, remaining: 18, days: 28 });
    expect(daysUsedAndRemaining(period, cph('2026-02-01T00:00'), CPH).remaining).toBe(28);
    expect(daysUsedAndRemaining(period, cph('2026-02-28T23:59'), CPH).remaining).toBe(1);
    expect(daysUsedAndRemaining(period, cph('2026-03-01T00:00'), CPH).remaining).toBe(0);
    expect(daysUsedAndRemaining(period, cph('2026-01-20T00:00'), CPH).remaining).toBe(28);
  });

  it('counts the renewal day itself as the next period when the renewal is later in the day', () => {
    // Period 15 Jan 10:00 – 15 Feb 10:00: at 15 Feb 08:00 the last day (14 Feb) is over.
    const period = periodBounds(base('2026-01-15T10:00'), monthly, 0);
    expect(daysUsedAndRemaining(period, cph('2026-02-15T08:00'), CPH)).toEqual({ used: 31, remaining: 0, days: 31 });
    expect(daysUsedAndRemaining(period, cph('2026-01-15T11:00'), CPH)).toEqual({ used: 0, remaining: 31, days: 31 });
  });
});
