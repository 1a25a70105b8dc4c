import { AppError } from '@billing/errors';

/**
 * The test clock only moves forward: what became due has been processed, and moving back would
 * make it due again. Moving to the same time is allowed, so a caller can re-run processing (e.g.
 * after a timeout) without inventing a later time.
 */
export function checkAdvance(current: Date, to: Date): void {
  if (Number.isNaN(to.getTime())) throw AppError.invalidField('to', 'Enter a valid date/time.');
  if (to.getTime() < current.getTime()) {
    throw AppError.invalidField(
      'to',
      `Ensure this value is not earlier than the test clock's time, ${current.toISOString()}.`,
    );
  }
}

const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An ISO 8601 timestamp as an operator types it (`2026-01-15`, `2026-01-15T09:00`,
 * `2026-01-15T09:00:00+01:00`); without an offset it is UTC, never the machine's zone. Null for
 * anything else, including days that do not exist.
 */
export function parseTimestamp(text: string): Date | null {
  const match = ISO_TIMESTAMP.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`;
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return null;
  // Date accepts 2026-02-30 by rolling over; a day that does not exist is refused instead.
  const local = new Date(instant.getTime() + offsetMinutes(offset) * 60_000);
  if (local.getUTCDate() !== Number(day) || local.getUTCMonth() + 1 !== Number(month)) return null;
  return instant;
}

function offsetMinutes(offset: string): number {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}
