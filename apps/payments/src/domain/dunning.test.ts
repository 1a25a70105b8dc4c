import { describe, expect, it } from 'vitest';
import { attemptsAllowed, DEFAULT_DUNNING_DAYS, nextAttemptAt } from './dunning.js';

describe('dunning schedule', () => {
  const first = new Date('2026-01-15T09:00:00Z');

  it('retries 1, 3 and 7 days after the first attempt by default, then stops', () => {
    expect(nextAttemptAt(first, 1, DEFAULT_DUNNING_DAYS)).toEqual(new Date('2026-01-16T09:00:00Z'));
    expect(nextAttemptAt(first, 2, DEFAULT_DUNNING_DAYS)).toEqual(new Date('2026-01-18T09:00:00Z'));
    expect(nextAttemptAt(first, 3, DEFAULT_DUNNING_DAYS)).toEqual(new Date('2026-01-22T09:00:00Z'));
    expect(nextAttemptAt(first, 4, DEFAULT_DUNNING_DAYS)).toBeNull();
    expect(attemptsAllowed(DEFAULT_DUNNING_DAYS)).toBe(4);
  });

  it('follows an organization schedule, and an empty one never retries', () => {
    expect(nextAttemptAt(first, 1, [2, 10])).toEqual(new Date('2026-01-17T09:00:00Z'));
    expect(nextAttemptAt(first, 2, [2, 10])).toEqual(new Date('2026-01-25T09:00:00Z'));
    expect(nextAttemptAt(first, 1, [])).toBeNull();
    expect(attemptsAllowed([])).toBe(1);
  });
});
