import { describe, expect, it } from 'vitest';
import { startOfLocalDay } from './local-midnight.js';

describe('startOfLocalDay', () => {
  it('is local midnight as an instant, in winter and in summer time', () => {
    expect(startOfLocalDay('2026-02-01', 'Europe/Copenhagen').toISOString()).toBe('2026-01-31T23:00:00.000Z');
    expect(startOfLocalDay('2026-07-01', 'Europe/Copenhagen').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(startOfLocalDay('2026-02-01', 'America/New_York').toISOString()).toBe('2026-02-01T05:00:00.000Z');
    expect(startOfLocalDay('2026-02-01', 'UTC').toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('on the day the clocks go forward at midnight, is the first instant that exists', () => {
    // America/Santiago moved from -04 to -03 at 00:00 on 2026-09-06: the day begins at 01:00 local.
    expect(startOfLocalDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
