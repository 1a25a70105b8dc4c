import { describe, expect, it } from 'vitest';
import { isAcknowledged, retryAfterFailure } from './delivery-retry.js';

const at = new Date('2026-03-01T10:00:00.000Z');

describe('retryAfterFailure', () => {
  it('schedules 1 min, 5 min, 30 min, 2 h, 12 h and 24 h after each failed attempt, then gives up', () => {
    expect([0, 1, 2, 3, 4, 5].map((step) => retryAfterFailure(step, at).nextAttemptAt?.toISOString())).toEqual([
      '2026-03-01T10:01:00.000Z',
      '2026-03-01T10:05:00.000Z',
      '2026-03-01T10:30:00.000Z',
      '2026-03-01T12:00:00.000Z',
      '2026-03-01T22:00:00.000Z',
      '2026-03-02T10:00:00.000Z',
    ]);
    expect(retryAfterFailure(0, at)).toEqual({
      status: 'pending',
      step: 1,
      nextAttemptAt: new Date('2026-03-01T10:01:00.000Z'),
    });
    expect(retryAfterFailure(6, at)).toEqual({ status: 'failed', step: 7, nextAttemptAt: null });
  });
});

describe('isAcknowledged', () => {
  it('is any 2xx', () => {
    expect([200, 201, 204, 299].map(isAcknowledged)).toEqual([true, true, true, true]);
    expect([null, 100, 199, 300, 301, 400, 410, 500].map(isAcknowledged)).toEqual(Array(8).fill(false));
  });
});
