import { describe, expect, it } from 'vitest';
import { endOfLocalDay, isValidTimeZone, startOfLocalDay } from './local-day.js';

describe('local days', () => {
  it('starts and ends a day on the wall clocks of a zone, across daylight saving', () => {
    expect(startOfLocalDay('2026-03-01', 'Europe/Copenhagen').toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(startOfLocalDay('2026-04-01', 'Europe/Copenhagen').toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(endOfLocalDay('2026-03-29', 'Europe/Copenhagen').toISOString()).toBe('2026-03-29T21:59:59.999Z');
    expect(startOfLocalDay('2026-12-01', 'UTC').toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('on the day the clocks go forward at midnight, starts at the first instant that exists', () => {
    // America/Santiago moved from -04 to -03 at 00:00 on 2026-09-06: the day begins at 01:00 local.
    expect(startOfLocalDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(startOfLocalDay('2026-02-01', 'America/New_York').toISOString()).toBe('2026-02-01T05:00:00.000Z');
  });

  it('refuses what is not a calendar day or a zone', () => {
    expect(() => startOfLocalDay('2026-02-30', 'UTC')).toThrow(RangeError);
    expect(() => startOfLocalDay('2026-1-01', 'UTC')).toThrow(RangeError);
    expect(isValidTimeZone('Europe/Copenhagen')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});
