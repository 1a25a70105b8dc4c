import { describe, expect, it } from 'vitest';
import { TestClock } from './clock.js';

describe('TestClock', () => {
  it('stands still and moves only when told', () => {
    const clock = new TestClock('2026-01-15T10:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-01-15T10:00:00.000Z');
    clock.advanceSeconds(90);
    expect(clock.now().toISOString()).toBe('2026-01-15T10:01:30.000Z');
    clock.set('2026-02-01T00:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });
});
