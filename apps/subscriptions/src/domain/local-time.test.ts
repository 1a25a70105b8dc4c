import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  daysInMonth,
  formatLocalDate,
  fromLocal,
  isValidTimeZone,
  type LocalDateTime,
  localDateOf,
  offsetMs,
  parseLocalDate,
  toLocal,
} from './local-time.js';

const CPH = 'Europe/Copenhagen';
const at = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0) =>
  ({ year, month, day, hour, minute, second, millisecond }) satisfies LocalDateTime;
const iso = (date: Date) => date.toISOString();

describe('toLocal / fromLocal', () => {
  it('reads the wall clock in winter and summer', () => {
    expect(toLocal(new Date('2026-01-15T09:00:00.123Z'), CPH)).toEqual(at(2026, 1, 15, 10, 0, 0, 123));
    expect(toLocal(new Date('2026-07-01T22:30:00Z'), CPH)).toEqual(at(2026, 7, 2, 0, 30));
    expect(toLocal(new Date('2026-01-01T00:00:00Z'), 'America/New_York')).toEqual(at(2025, 12, 31, 19));
    expect(toLocal(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toEqual(at(2026, 1, 1, 5, 30));
    expect(toLocal(new Date('2026-01-01T00:00:00Z'), 'UTC')).toEqual(at(2026, 1, 1));
    expect(localDateOf(new Date('2026-01-31T23:30:00Z'), CPH)).toEqual({ year: 2026, month: 2, day: 1 });
  });

  it('knows offsets', () => {
    expect(offsetMs(new Date('2026-01-15T00:00:00Z'), CPH)).toBe(3_600_000);
    expect(offsetMs(new Date('2026-07-15T00:00:00Z'), CPH)).toBe(7_200_000);
    expect(offsetMs(new Date('2026-01-15T00:00:00Z'), 'Pacific/Chatham')).toBe(13.75 * 3_600_000);
  });

  it('round-trips ordinary wall-clock times', () => {
    expect(iso(fromLocal(at(2026, 3, 15, 10), CPH))).toBe('2026-03-15T09:00:00.000Z');
    expect(iso(fromLocal(at(2026, 4, 15, 10), CPH))).toBe('2026-04-15T08:00:00.000Z');
    expect(iso(fromLocal(at(2026, 12, 31, 23, 59, 59, 999), CPH))).toBe('2026-12-31T22:59:59.999Z');
    expect(iso(fromLocal(at(2026, 6, 1, 0, 0), 'America/New_York'))).toBe('2026-06-01T04:00:00.000Z');
    // Every fifth hour (so every hour of the day) of a whole year in several zones maps back to itself.
    for (const zone of [CPH, 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC']) {
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 5 * 3_600_000) {
        const local = toLocal(new Date(ms), zone);
        const back = fromLocal(local, zone);
        // In a repeated hour the earlier instant is chosen; otherwise it is the same instant.
        expect(toLocal(back, zone)).toEqual(local);
        expect(back.getTime() <= ms).toBe(true);
      }
    }
  });

  it('moves a non-existent time forward by the gap (spring forward)', () => {
    // Copenhagen 29 Mar 2026: 02:00 → 03:00.
    expect(iso(fromLocal(at(2026, 3, 29, 2, 30), CPH))).toBe('2026-03-29T01:30:00.000Z');
    expect(toLocal(fromLocal(at(2026, 3, 29, 2, 30), CPH), CPH)).toEqual(at(2026, 3, 29, 3, 30));
    expect(iso(fromLocal(at(2026, 3, 29, 1, 59), CPH))).toBe('2026-03-29T00:59:00.000Z');
    expect(iso(fromLocal(at(2026, 3, 29, 3, 0), CPH))).toBe('2026-03-29T01:00:00.000Z');
    // New York 8 Mar 2026: 02:00 → 03:00.
    expect(toLocal(fromLocal(at(2026, 3, 8, 2, 15), 'America/New_York'), 'America/New_York')).toEqual(
      at(2026, 3, 8, 3, 15),
    );
  });

  it('takes the earlier of a repeated time (fall back)', () => {
    // Copenhagen 25 Oct 2026: 03:00 → 02:00, so 02:30 happens at 00:30Z and at 01:30Z.
    expect(iso(fromLocal(at(2026, 10, 25, 2, 30), CPH))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(fromLocal(at(2026, 10, 25, 3, 0), CPH))).toBe('2026-10-25T02:00:00.000Z');
  });

  it('reads the same wall clock as Intl itself, across transitions, half-hour zones and old offsets', () => {
    const formats = new Map<string, Intl.DateTimeFormat>();
    const intl = (ms: number, zone: string) => {
      if (!formats.has(zone)) {
        const fields = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric' } as const;
        const time = { minute: 'numeric', second: 'numeric' } as const;
        formats.set(zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', ...fields, ...time }));
      }
      const parts = formats.get(zone)!.formatToParts(ms);
      const field = (type: string) => Number(parts.find((part) => part.type === type)!.value);
      const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map(field);
      return at(year!, month!, day!, hour!, minute!, second!, ((ms % 1000) + 1000) % 1000);
    };
    // Lord Howe and St John's change offset at :30 past a UTC hour, Dublin's DST is negative,
    // Casablanca switches for Ramadan; Amsterdam in 1920 was 19 min 32 s ahead of UTC.
    const zones = [CPH, 'Australia/Lord_Howe', 'America/St_Johns', 'Europe/Dublin', 'Africa/Casablanca'];
    for (const zone of zones) {
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 31 * 60_000 + 1_234) {
        expect(toLocal(new Date(ms), zone)).toEqual(intl(ms, zone));
      }
    }
    for (const ms of [Date.UTC(1920, 5, 1, 12, 0, 0, 7), Date.UTC(1920, 0, 1), Date.UTC(1890, 6, 1, 23, 59, 59)]) {
      expect(toLocal(new Date(ms), 'Europe/Amsterdam')).toEqual(intl(ms, 'Europe/Amsterdam'));
    }
  });

  it('handles a whole skipped day (Samoa, 30 Dec 2011)', () => {
    const local = toLocal(fromLocal(at(2011, 12, 30, 10), 'Pacific/Apia'), 'Pacific/Apia');
    expect(local).toEqual(at(2011, 12, 31, 10));
  });

  it('refuses bad zones, dates and times', () => {
    expect(isValidTimeZone(CPH)).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(() => toLocal(new Date(), 'Mars/Olympus')).toThrow(RangeError);
    expect(() => toLocal(new Date(Number.NaN), CPH)).toThrow(RangeError);
    expect(() => fromLocal(at(2026, 2, 29, 10), CPH)).toThrow(RangeError);
    expect(() => fromLocal(at(2026, 1, 1, 24), CPH)).toThrow(RangeError);
  });
});

describe('calendar arithmetic', () => {
  it('counts days in months', () => {
    expect(daysInMonth(2026, 2)).toBe(28);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2026, 4)).toBe(30);
    expect(daysInMonth(2026, 12)).toBe(31);
  });

  it('adds and counts days across months, years and DST', () => {
    const d = parseLocalDate;
    expect(formatLocalDate(addDays(d('2026-01-31'), 1))).toBe('2026-02-01');
    expect(formatLocalDate(addDays(d('2026-03-01'), -1))).toBe('2026-02-28');
    expect(formatLocalDate(addDays(d('2026-12-31'), 1))).toBe('2027-01-01');
    expect(daysBetween(d('2026-02-01'), d('2026-03-01'))).toBe(28);
    expect(daysBetween(d('2026-03-15'), d('2026-04-15'))).toBe(31);
    expect(daysBetween(d('2026-01-01'), d('2027-01-01'))).toBe(365);
    expect(daysBetween(d('2028-01-01'), d('2029-01-01'))).toBe(366);
    expect(daysBetween(d('2026-04-15'), d('2026-03-15'))).toBe(-31);
  });

  it('parses and formats YYYY-MM-DD strictly', () => {
    expect(parseLocalDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(formatLocalDate({ year: 2026, month: 3, day: 5 })).toBe('2026-03-05');
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-01', '26-01-01', '2026-01-01T00:00', '']) {
      expect(() => parseLocalDate(bad), bad).toThrow(RangeError);
    }
  });
});
