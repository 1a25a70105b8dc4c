/**
 * Instants ↔ wall-clock time in an IANA time zone, with nothing but Intl.
 *
 * A LocalDate is a calendar day (no zone); a LocalDateTime is a wall-clock reading. Converting a
 * wall-clock reading to an instant follows Temporal's 'compatible' disambiguation:
 * - a time that occurs twice (autumn: clocks go back) gives the EARLIER instant;
 * - a time that does not exist (spring: clocks go forward) is moved forward by the gap
 *   (02:30 on the spring-forward night in Europe/Copenhagen becomes 03:30 summer time).
 */

export interface LocalDate {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
}

export interface LocalTime {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export type LocalDateTime = LocalDate & LocalTime;

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    // Throws RangeError for an unknown zone.
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

function assertInstant(instant: Date): number {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new RangeError('Invalid Date');
  return ms;
}

/** The wall-clock reading of `ms` in `timeZone` as Intl gives it (the reference, but slow). */
function intlLocal(ms: number, timeZone: string): LocalDateTime {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? Number.NaN,
    month: fields.month ?? Number.NaN,
    day: fields.day ?? Number.NaN,
    hour: fields.hour ?? Number.NaN,
    minute: fields.minute ?? Number.NaN,
    second: fields.second ?? Number.NaN,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

const HOUR_MS = 3_600_000;
const MAX_CACHED_HOURS = 100_000;
/** Per zone, the UTC offset in force during a whole UTC hour, or null when it changes within that hour. */
const hourOffsets = new Map<string, Map<number, number | null>>();

/**
 * formatToParts costs microseconds and the engine reads the wall clock dozens of times per
 * subscription, so the offset is cached per UTC hour: Intl is asked at the hour's first and last
 * millisecond, and when both agree no transition lies between them (no zone changes its offset
 * twice within an hour). An hour with a transition (e.g. Lord Howe's at :30 UTC) keeps using Intl.
 */
function hourOffset(ms: number, timeZone: string): number | null {
  let zone = hourOffsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    hourOffsets.set(timeZone, zone);
  }
  const hour = Math.floor(ms / HOUR_MS);
  let offset = zone.get(hour);
  if (offset === undefined) {
    const start = hour * HOUR_MS;
    const end = start + HOUR_MS - 1;
    const first = wallMs(intlLocal(start, timeZone)) - start;
    offset = first === wallMs(intlLocal(end, timeZone)) - end ? first : null;
    if (zone.size >= MAX_CACHED_HOURS) zone.clear();
    zone.set(hour, offset);
  }
  return offset;
}

/** The wall-clock reading of `instant` in `timeZone`. */
export function toLocal(instant: Date, timeZone: string): LocalDateTime {
  const ms = assertInstant(instant);
  const offset = hourOffset(ms, timeZone);
  const wall = offset === null ? Number.NaN : ms + offset;
  const date = new Date(wall);
  // Years before 1 (Intl counts eras) and the far end of the Date range stay with Intl.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1) return intlLocal(ms, timeZone);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
}

/** The calendar day of `instant` in `timeZone`. */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  const { year, month, day } = toLocal(instant, timeZone);
  return { year, month, day };
}

/** The wall clock read as if it were UTC, in ms (the arithmetic base of everything here). */
function wallMs(local: LocalDateTime): number {
  const date = new Date(0);
  date.setUTCFullYear(local.year, local.month - 1, local.day);
  date.setUTCHours(local.hour, local.minute, local.second, local.millisecond);
  return date.getTime();
}

/** UTC offset of `timeZone` at `instant`, in ms (Copenhagen in winter: 3_600_000). */
export function offsetMs(instant: Date, timeZone: string): number {
  return wallMs(toLocal(instant, timeZone)) - assertInstant(instant);
}

function sameWallClock(a: LocalDateTime, b: LocalDateTime): boolean {
  return wallMs(a) === wallMs(b);
}

/** The instant at which the wall clock of `timeZone` shows `local` ('compatible' disambiguation). */
export function fromLocal(local: LocalDateTime, timeZone: string): Date {
  assertLocalDateTime(local);
  const wall = wallMs(local);
  // Zones change offset at most once within a day on either side of any instant we care about.
  const before = offsetMs(new Date(wall - DAY_MS), timeZone);
  const after = offsetMs(new Date(wall + DAY_MS), timeZone);
  const candidates = [wall - before, wall - after]
    .filter((ms) => sameWallClock(toLocal(new Date(ms), timeZone), local))
    .sort((a, b) => a - b);
  const earliest = candidates[0];
  if (earliest !== undefined) return new Date(earliest);
  // A gap: read the wall clock with the offset in force before the transition (moves it forward).
  return new Date(wall - before);
}

// ---- calendar arithmetic on LocalDate (no zone involved) ----

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function assertLocalDate(date: LocalDate): void {
  const { year, month, day } = date;
  if (
    !Number.isInteger(year) ||
    !Number.isInteger(month) ||
    !Number.isInteger(day) ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month)
  ) {
    throw new RangeError(`Invalid local date: ${JSON.stringify(date)}`);
  }
}

function assertLocalDateTime(local: LocalDateTime): void {
  assertLocalDate(local);
  const { hour, minute, second, millisecond } = local;
  const ok =
    Number.isInteger(hour) &&
    Number.isInteger(minute) &&
    Number.isInteger(second) &&
    Number.isInteger(millisecond) &&
    hour >= 0 &&
    hour < 24 &&
    minute >= 0 &&
    minute < 60 &&
    second >= 0 &&
    second < 60 &&
    millisecond >= 0 &&
    millisecond < 1000;
  if (!ok) throw new RangeError(`Invalid local time: ${JSON.stringify(local)}`);
}

/** Days since 1970-01-01 of a calendar day. */
export function epochDay(date: LocalDate): number {
  return Math.round(wallMs({ ...date, hour: 0, minute: 0, second: 0, millisecond: 0 }) / DAY_MS);
}

function fromEpochDay(days: number): LocalDate {
  const date = new Date(days * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return fromEpochDay(epochDay(date) + days);
}

/** Calendar days from `from` to `to` (to − from); 1 Feb → 1 Mar 2026 is 28. */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return epochDay(to) - epochDay(from);
}

export function compareLocalDates(a: LocalDate, b: LocalDate): number {
  return epochDay(a) - epochDay(b);
}

/** 'YYYY-MM-DD' */
export function formatLocalDate(date: LocalDate): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Parses 'YYYY-MM-DD' (a real calendar day) or throws RangeError. */
export function parseLocalDate(text: string): LocalDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new RangeError(`Invalid date: ${JSON.stringify(text)}`);
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  assertLocalDate(date);
  return date;
}
