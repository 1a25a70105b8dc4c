import { formatAmount, formatExact } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { monthlyFactor, mrr, mrrForDisplay } from './mrr.js';
import { priceLine } from './pricing.js';

const line = (price: string, quantity: number, override?: string) =>
  priceLine({
    terms_price: price,
    override_price: override ?? null,
    currency: 'DKK',
    quantity,
    contract: {
      exclusive_tiers: true,
      tiers: [{ minimum_quantity: 5, maximum_quantity: null, discount: '10', discount_type: 'percentage' }],
    },
  });

describe('mrr (gaps §8)', () => {
  it('uses the factor of each interval type', () => {
    expect(monthlyFactor({ type: 'month', count: 3 })).toEqual({ numerator: 1, denominator: 3 });
    expect(monthlyFactor({ type: 'year', count: 2 })).toEqual({ numerator: 1, denominator: 24 });
    expect(monthlyFactor({ type: 'week', count: 2 })).toEqual({ numerator: 52, denominator: 24 });
    expect(monthlyFactor({ type: 'day', count: 30 })).toEqual({ numerator: 365, denominator: 360 });
    expect(() => monthlyFactor({ type: 'month', count: 0 })).toThrow(RangeError);
  });

  it('is discounted unit price × quantity × factor, unrounded', () => {
    expect(formatExact(mrr(line('100', 2), { type: 'month', count: 1 }))).toBe('200');
    expect(formatExact(mrr(line('100', 5), { type: 'month', count: 1 }))).toBe('450'); // 10% tier
    expect(formatExact(mrr(line('100', 5, '80'), { type: 'month', count: 1 }))).toBe('360'); // override, discounted
    expect(formatExact(mrr(line('1200', 1), { type: 'year', count: 1 }))).toBe('100');
    expect(formatExact(mrr(line('100', 1), { type: 'month', count: 3 }))).toBe(
      '33.33333333333333333333333333333333333333',
    );
    expect(formatExact(mrr(line('10', 1), { type: 'week', count: 1 }))).toBe(
      '43.33333333333333333333333333333333333333',
    );
    expect(formatExact(mrr(line('1', 1), { type: 'day', count: 1 }))).toBe('30.41666666666666666666666666666666666667');
    expect(formatExact(mrr(line('100', 0), { type: 'month', count: 1 }))).toBe('0');
  });

  it('rounds only for display, half-up to the minor unit', () => {
    expect(formatAmount(mrrForDisplay(mrr(line('100', 1), { type: 'month', count: 3 }), 'DKK'), 'DKK')).toBe('33.33');
    expect(formatAmount(mrrForDisplay(mrr(line('100', 2), { type: 'month', count: 3 }), 'DKK'), 'DKK')).toBe('66.67');
    expect(formatAmount(mrrForDisplay(mrr(line('1', 1), { type: 'day', count: 1 }), 'ISK'), 'ISK')).toBe('30');
    // Three subscriptions of 33.333… sum to exactly 100, not 99.99.
    const one = mrr(line('100', 1), { type: 'month', count: 3 });
    expect(formatAmount(mrrForDisplay(one.plus(one).plus(one), 'DKK'), 'DKK')).toBe('100.00');
  });
});
