import { describe, expect, it } from 'vitest';
import { MAX_BACKDATED_PERIODS, startDateViolations } from './fields.js';

const NOW = new Date('2026-01-15T09:00:00.000Z');
const TOO_FAR = [
  {
    field: 'start_date',
    description: `Ensure this date is no more than ${MAX_BACKDATED_PERIODS} billing periods of the plan terms before now.`,
  },
];
const monthly = { type: 'month' as const, count: 1 };
const daily = { type: 'day' as const, count: 1 };

describe('startDateViolations (backdating is bounded in billing periods)', () => {
  it('takes no start, a start now or later, and one exactly 36 periods back', () => {
    expect(MAX_BACKDATED_PERIODS).toBe(36);
    expect(startDateViolations(null, NOW, monthly, 'Europe/Copenhagen')).toEqual([]);
    expect(startDateViolations(NOW, NOW, monthly, 'Europe/Copenhagen')).toEqual([]);
    expect(startDateViolations(new Date('9999-12-31T23:59:59Z'), NOW, daily, 'UTC')).toEqual([]);
    // 36 months before 2026-01-15 10:00 Copenhagen time is 2023-01-15 10:00 (09:00Z, winter time).
    expect(startDateViolations(new Date('2023-01-15T09:00:00.000Z'), NOW, monthly, 'Europe/Copenhagen')).toEqual([]);
    expect(startDateViolations(new Date('2025-12-10T09:00:00.000Z'), NOW, daily, 'UTC')).toEqual([]);
  });

  it('refuses a start more than 36 periods back', () => {
    expect(startDateViolations(new Date('2023-01-15T08:59:59.999Z'), NOW, monthly, 'Europe/Copenhagen')).toEqual(
      TOO_FAR,
    );
    expect(startDateViolations(new Date('2025-12-10T08:59:59.999Z'), NOW, daily, 'UTC')).toEqual(TOO_FAR);
    expect(startDateViolations(new Date('0001-01-01T00:00:00.000Z'), NOW, { type: 'year', count: 1 }, 'UTC')).toEqual(
      TOO_FAR,
    );
  });
});
