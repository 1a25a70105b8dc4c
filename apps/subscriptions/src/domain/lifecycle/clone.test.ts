import { describe, expect, it } from 'vitest';
import { cloneData } from './clone.js';

describe('cloneData', () => {
  it('copies nested objects, arrays and dates deeply, as structuredClone does', () => {
    const original = {
      status: 'active',
      at: new Date('2026-04-15T08:00:00Z'),
      none: null,
      missing: undefined,
      pricing: { quantity: 3, terms: { price: '49.95', interval: { type: 'month', count: 1 } }, contract: null },
      pending_lines: [{ amount: '-10.00', tiers_applied: [{ discount: '10' }] }],
    };
    const copy = cloneData(original);
    expect(copy).toStrictEqual(structuredClone(original));
    expect(copy).toStrictEqual(original);
    copy.at.setTime(0);
    copy.pricing.terms.interval.count = 12;
    copy.pending_lines[0]!.tiers_applied[0]!.discount = '50';
    expect(original.at.toISOString()).toBe('2026-04-15T08:00:00.000Z');
    expect(original.pricing.terms.interval.count).toBe(1);
    expect(original.pending_lines[0]!.tiers_applied[0]!.discount).toBe('10');
  });
});
