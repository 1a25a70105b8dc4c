import { describe, expect, it } from 'vitest';
import { limitReached, reservationSize, reserve, spend } from './reservation.js';

describe('rate-limit reservations', () => {
  it('counts small limits one request at a time and large ones in blocks of limit/1000, at most 100', () => {
    expect([60, 1_999, 2_000, 50_000, 100_000, 100_000_000].map(reservationSize)).toEqual([1, 1, 2, 50, 100, 100]);
  });

  it('spends a block request by request at its place in the global count', () => {
    const block = reserve(60_000, 130, 100, 1_000_000);
    expect(block).toEqual({ windowStart: 60_000, base: 30, granted: 100, used: 0 });
    expect([spend(block, 60_000), spend(block, 60_000)]).toEqual([31, 32]);
    expect(spend(block, 120_000)).toBeNull();
  });

  it('grants only what is left under the limit, and nothing once it is reached', () => {
    const last = reserve(0, 105, 10, 100);
    expect(last.granted).toBe(5);
    expect(Array.from({ length: 6 }, () => spend(last, 0))).toEqual([96, 97, 98, 99, 100, null]);
    expect(reserve(0, 120, 10, 100).granted).toBe(0);
    expect(spend(reserve(0, 120, 10, 100), 0)).toBeNull();
  });

  it('knows the window is spent once a block showed the limit reached', () => {
    const last = reserve(0, 101, 2, 100);
    expect(limitReached(last, 0, 100)).toBe(false);
    spend(last, 0);
    expect(limitReached(last, 0, 100)).toBe(true);
    expect(limitReached(last, 60_000, 100)).toBe(false);
    const midway = reserve(0, 50, 2, 100);
    spend(midway, 0);
    spend(midway, 0);
    expect(limitReached(midway, 0, 100)).toBe(false);
  });

  it('is exact for a block of one', () => {
    const within = reserve(0, 60, 1, 60);
    expect(spend(within, 0)).toBe(60);
    const over = reserve(0, 61, 1, 60);
    expect([over.granted, spend(over, 0)]).toEqual([0, null]);
  });
});
