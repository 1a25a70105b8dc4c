const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** A calendar date as YYYY-MM-DD when `value` is one that exists (no 2026-02-30), else null. */
export function parseIsoDate(value: string): string | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const [, year, month, day] = match;
  return isCalendarDate(Number(year), Number(month), Number(day)) ? value : null;
}

/**
 * An instant from ISO 8601 text the way Django's parser reads it: "YYYY-MM-DD", optionally
 * followed by "THH:MM[:SS[.fraction]]" and "Z" or an offset. Text without an offset is UTC (the
 * server time zone). Fractions beyond milliseconds are dropped, as a JS Date cannot hold them.
 */
export function parseIsoDateTime(value: string): Date | null {
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  const offsetMinutes = parseOffsetMinutes(zone);
  if (offsetMinutes === null) return null;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  const instant = new Date(0);
  instant.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  instant.setUTCHours(Number(hour), Number(minute) - offsetMinutes, Number(second), millis);
  return instant;
}

const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Whether an instant lies in years 1 to 9999 in UTC, the range of Python's datetime (so DRF's) and
 * of ISO 8601's four-digit years. "0001-01-01T00:00+05:00" is a valid text for an instant before
 * it: DRF answers "Datetime value out of range.", and PostgreSQL cannot take year 0.
 */
export function isInstantInRange(instant: Date): boolean {
  const time = instant.getTime();
  return time >= FIRST_INSTANT && time <= LAST_INSTANT;
}

/**
 * `instant` moved into years 1-9999 when outside them: a bound of a range filter computed from a
 * valid date (the start of 0001-01-01 east of UTC, the end of 9999-12-31 west of it) means "from
 * the first" or "to the last" instant anything can hold, and the services never see year 0 or 10000.
 */
export function clampInstant(instant: Date): Date {
  const time = Math.min(Math.max(instant.getTime(), FIRST_INSTANT), LAST_INSTANT);
  return time === instant.getTime() ? instant : new Date(time);
}

/** parseIsoDateTime, but null also for an instant outside isInstantInRange (filters answer both alike). */
export function parseIsoDateTimeInRange(value: string): Date | null {
  const instant = parseIsoDateTime(value);
  return instant && isInstantInRange(instant) ? instant : null;
}

function parseOffsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= daysInMonth;
}
