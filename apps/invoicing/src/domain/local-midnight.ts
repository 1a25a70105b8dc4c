import { localDay } from './local-day.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetMillis(instant: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
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
  const fields: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant))
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  const wall = Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The first instant of `day` (YYYY-MM-DD) on the wall clocks of `timeZone`. Around a DST change
 * the offsets before and after give two candidates; the earliest that is on the day is its start.
 */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  const midnightAsUtc = Date.UTC(year!, month! - 1, date!);
  const first = midnightAsUtc - offsetMillis(midnightAsUtc, timeZone);
  const second = midnightAsUtc - offsetMillis(first, timeZone);
  const onTheDay = [first, second]
    .filter((candidate) => localDay(new Date(candidate), timeZone) === day)
    .sort((a, b) => a - b);
  return new Date(onTheDay[0] ?? first);
}
