import { describe, expect, it } from 'vitest';
import { afterAttempt } from './retry-schedule.js';

const at = new Date('2026-03-01T10:00:00.000Z');

describe('afterAttempt', () => {
  it('retries after 1 min, 5 min, 30 min, 2 h, 12 h and 24 h, then fails', () => {
    const next = [0, 1, 2, 3, 4, 5].map((step) => afterAttempt(step, false, at));
    expect(next.map((outcome) => [outcome.status, outcome.step, outcome.nextAttemptAt?.toISOString()])).toEqual([
      ['pending', 1, '2026-03-01T10:01:00.000Z'],
      ['pending', 2, '2026-03-01T10:05:00.000Z'],
      ['pending', 3, '2026-03-01T10:30:00.000Z'],
      ['pending', 4, '2026-03-01T12:00:00.000Z'],
      ['pending', 5, '2026-03-01T22:00:00.000Z'],
      ['pending', 6, '2026-03-02T10:00:00.000Z'],
    ]);
    expect(afterAttempt(6, false, at)).toEqual({ status: 'failed', step: 7, nextAttemptAt: null });
  });

  it('an acknowledged attempt ends the schedule whatever its step', () => {
    expect(afterAttempt(3, true, at)).toEqual({ status: 'succeeded', step: 3, nextAttemptAt: null });
  });
});
