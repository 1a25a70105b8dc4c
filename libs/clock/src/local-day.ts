/**
 * Days on an organization's wall clock (its IANA time zone): where a local day starts and ends as
 * instants. Used by the gateway's date filters and by payments (a card's expiry month).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for a name that is not an IANA zone.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The first instant of `date` (YYYY-MM-DD) on the wall clocks of `timeZone`. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const [year, month, day] = splitDate(date);
  return startOfDay(year, month, day, timeZone);
}

/** startOfLocalDay for a day given by its parts (which may roll over: day 32 is the next month's 1st). */
function startOfDay(year: number, month: number, day: number, timeZone: string): Date {
  const date = localDate(utcMillis(year, month, day), 'UTC');
  const midnightAsUtc = utcMillis(year, month, day);
  // The zone's offset differs around a DST change; of the candidates from the offsets before and
  // after, the earliest one that is on the wanted local day is its start (where midnight does not
  // exist, that is the first minute after the gap).
  const first = midnightAsUtc - offsetMillis(midnightAsUtc, timeZone);
  const second = midnightAsUtc - offsetMillis(first, timeZone);
  const onTheDay = [first, second].filter((candidate) => localDate(candidate, timeZone) === date).sort((a, b) => a - b);
  return new Date(onTheDay[0] ?? first);
}

/**
 * The last millisecond of `date` on the wall clocks of `timeZone` (just before the next day starts;
 * for 9999-12-31 that next day is in year 10000, which no YYYY-MM-DD text can name).
 */
export function endOfLocalDay(date: string, timeZone: string): Date {
  const [year, month, day] = splitDate(date);
  return new Date(startOfDay(year, month, day + 1, timeZone).getTime() - 1);
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetMillis(instant: number, timeZone: string): number {
  const parts = wallClock(instant, timeZone);
  const asUtc = utcMillis(parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

function localDate(instant: number, timeZone: string): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function wallClock(instant: number, timeZone: string) {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? 0,
    month: fields.month ?? 1,
    day: fields.day ?? 1,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

function utcMillis(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute, second, 0);
  return instant.getTime();
}

function splitDate(date: string): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  // A real calendar day: 2026-02-30 does not come back the same from the calendar.
  const calendar = new Date(Date.UTC(2000, 0, 1));
  calendar.setUTCFullYear(year, month - 1, day);
  if (
    !match ||
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day
  ) {
    throw new RangeError(`Not a calendar date: ${date}`);
  }
  return [year, month, day];
}
