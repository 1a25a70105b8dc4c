import { MoneyDecimal, money } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { toBaseMrr } from './base-mrr.js';

describe('toBaseMrr', () => {
  it('converts at the rate and rounds half-up to the base minor unit', () => {
    expect(toBaseMrr(money('100'), money('7.46'), 'DKK')?.toFixed(2)).toBe('746.00');
    // 200 / 12 = 16.666…67 → 16.67
    expect(toBaseMrr(new MoneyDecimal(200).dividedBy(12), new MoneyDecimal(1), 'DKK')?.toFixed(2)).toBe('16.67');
    expect(toBaseMrr(money('0.005'), new MoneyDecimal(1), 'DKK')?.toFixed(2)).toBe('0.01');
    expect(toBaseMrr(money('10.5'), new MoneyDecimal(1), 'ISK')?.toFixed(0)).toBe('11');
  });
  it('is null without a rate', () => {
    expect(toBaseMrr(money('100'), null, 'DKK')).toBeNull();
  });
});
