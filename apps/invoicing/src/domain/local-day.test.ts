import { describe, expect, it } from 'vitest';
import { isIsoDate, localDay } from './local-day.js';

describe('localDay', () => {
  it('is the calendar day where the organization is, not in UTC', () => {
    const instant = new Date('2026-01-14T23:30:00Z');
    expect(localDay(instant, 'UTC')).toBe('2026-01-14');
    expect(localDay(instant, 'Europe/Copenhagen')).toBe('2026-01-15');
    expect(localDay(new Date('2026-01-15T03:00:00Z'), 'America/New_York')).toBe('2026-01-14');
  });
});

describe('isIsoDate', () => {
  it('reads only real calendar days as dates', () => {
    expect(['2026-01-31', '2024-02-29'].map(isIsoDate)).toEqual([true, true]);
    expect(
      ['2025-02-29', '2026-02-30', '2026-13-01', '2026-1-5', '20260105', '2026-01-05T00:00'].map(isIsoDate),
    ).toEqual([false, false, false, false, false, false]);
  });
});
