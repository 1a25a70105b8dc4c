import { formatAmount, money } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { fromLocal } from './local-time.js';
import { daysUsedAndRemaining, periodBounds } from './periods.js';
import { priceLine } from './pricing.js';
import { prorate, proratedLineAmount } from './proration.js';

const CPH = 'Europe/Copenhagen';

describe('issue 3 acceptance: quantity 2 → 3 immediate on day 11 of a 28-day period', () => {
  it('credits the 18 unused days at 2 (-128.57) and charges them at 3 (192.86), each rounded per line', () => {
    // February 2026 is the 28-day period; day 11 is 11 Feb: days 1-10 used, 11-28 (18 days) remaining.
    const base = {
      instant: fromLocal({ year: 2026, month: 2, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 }, CPH),
      timeZone: CPH,
    };
    const period = periodBounds(base, { type: 'month', count: 1 }, 0);
    const change = fromLocal({ year: 2026, month: 2, day: 11, hour: 14, minute: 0, second: 0, millisecond: 0 }, CPH);
    const { used, remaining, days } = daysUsedAndRemaining(period, change, CPH);
    expect({ used, remaining, days }).toEqual({ used: 10, remaining: 18, days: 28 });

    const before = priceLine({ terms_price: '100.00', currency: 'DKK', quantity: 2 });
    const after = priceLine({ terms_price: '100.00', currency: 'DKK', quantity: 3 });
    const credit = proratedLineAmount(before, remaining, days).negated(); // 2×100×18/28 = 128.5714…
    const charge = proratedLineAmount(after, remaining, days); // 3×100×18/28 = 192.8571…
    expect(formatAmount(credit, 'DKK')).toBe('-128.57');
    expect(formatAmount(charge, 'DKK')).toBe('192.86');
    expect(formatAmount(credit.plus(charge), 'DKK')).toBe('64.29'); // the document's net: the sum of the two rounded lines
  });
});

describe('prorate', () => {
  it('is amount × days / period days, rounded half-up once', () => {
    expect(formatAmount(prorate('100', 15, 30, 'DKK'), 'DKK')).toBe('50.00');
    expect(formatAmount(prorate('100', 1, 3, 'DKK'), 'DKK')).toBe('33.33');
    expect(formatAmount(prorate('100', 2, 3, 'DKK'), 'DKK')).toBe('66.67');
    expect(formatAmount(prorate('0.01', 1, 2, 'DKK'), 'DKK')).toBe('0.01'); // 0.005 → 0.01
    expect(formatAmount(prorate('-0.01', 1, 2, 'DKK'), 'DKK')).toBe('-0.01');
    expect(formatAmount(prorate('1000', 10, 31, 'ISK'), 'ISK')).toBe('323'); // 322.58…
    expect(formatAmount(prorate('1000', 31, 31, 'ISK'), 'ISK')).toBe('1000');
    expect(formatAmount(prorate('1000', 0, 31, 'EUR'), 'EUR')).toBe('0.00');
  });

  it('prorates the exact line amount, not the rounded subtotal', () => {
    const line = priceLine({ terms_price: '0.125', currency: 'DKK', quantity: 1 }); // subtotal 0.13
    expect(formatAmount(line.subtotal, 'DKK')).toBe('0.13');
    expect(formatAmount(proratedLineAmount(line, 14, 28), 'DKK')).toBe('0.06'); // 0.0625, not 0.065 → 0.07
    expect(proratedLineAmount(line, 28, 28).equals(money('0.13'))).toBe(true);
  });

  it('refuses impossible day counts', () => {
    expect(() => prorate('1', 29, 28, 'DKK')).toThrow(RangeError);
    expect(() => prorate('1', -1, 28, 'DKK')).toThrow(RangeError);
    expect(() => prorate('1', 1, 0, 'DKK')).toThrow(RangeError);
    expect(() => prorate('1', 1.5, 28, 'DKK')).toThrow(RangeError);
  });
});
