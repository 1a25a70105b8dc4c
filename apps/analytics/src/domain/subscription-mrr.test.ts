import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { mrrFigures, mrrTotalsChange, sumOfTotalsChanges } from './subscription-mrr.js';

const ONE = new MoneyDecimal(1);
const show = (f: ReturnType<typeof mrrFigures>) => [
  f.total_mrr.toFixed(2),
  f.future_mrr.toFixed(2),
  f.pending_mrr.toFixed(2),
];

describe('mrrFigures', () => {
  it('active: total now, future after the waiting change', () => {
    expect(show(mrrFigures('active', '200', null, ONE, 'DKK'))).toEqual(['200.00', '200.00', '0.00']);
    expect(show(mrrFigures('active', '200', '450', ONE, 'DKK'))).toEqual(['200.00', '450.00', '0.00']);
  });
  it('not_renewing counts now and not in the future', () => {
    expect(show(mrrFigures('not_renewing', '200', null, ONE, 'DKK'))).toEqual(['200.00', '0.00', '0.00']);
  });
  it('scheduled counts in the future only; pending apart; expired nowhere', () => {
    expect(show(mrrFigures('scheduled', '100', null, ONE, 'DKK'))).toEqual(['0.00', '100.00', '0.00']);
    expect(show(mrrFigures('pending_manual_renewal', '100', null, ONE, 'DKK'))).toEqual(['0.00', '0.00', '100.00']);
    expect(show(mrrFigures('expired', '100', null, ONE, 'DKK'))).toEqual(['0.00', '0.00', '0.00']);
  });
  it('converts at the rate, rounding per subscription', () => {
    // 10 EUR / 3 months = 3.333… EUR × 7.46 = 24.866… → 24.87
    expect(
      show(mrrFigures('active', '3.333333333333333333333333333333333333333', null, new MoneyDecimal('7.46'), 'DKK')),
    ).toEqual(['24.87', '24.87', '0.00']);
  });
});

describe('mrrTotalsChange and sumOfTotalsChanges', () => {
  const figures = (total: string, future: string, pending = '0') => ({
    total_mrr: new MoneyDecimal(total),
    future_mrr: new MoneyDecimal(future),
    pending_mrr: new MoneyDecimal(pending),
  });

  it('moves the totals from the stored figures to the new ones, counting active and not_renewing', () => {
    expect(mrrTotalsChange(null, figures('100', '100'), 'active')).toEqual({
      total_mrr: '100.00',
      future_mrr: '100.00',
      pending_mrr: '0.00',
      subscriptions_count: 1,
    });
    const stored = { status: 'not_renewing', total_mrr: '100.00', future_mrr: '0.00', pending_mrr: '0.00' };
    expect(mrrTotalsChange(stored, figures('0', '0'), 'expired')).toEqual({
      total_mrr: '-100.00',
      future_mrr: '0.00',
      pending_mrr: '0.00',
      subscriptions_count: -1,
    });
  });

  it('sums changes each rounded as stored (a 3-decimal base currency rounds each change, not the sum)', () => {
    const one = mrrTotalsChange(null, figures('0.004', '0.004'), 'active');
    expect(one.total_mrr).toBe('0.00');
    expect(sumOfTotalsChanges([one, one, one])).toEqual({
      total_mrr: '0.00',
      future_mrr: '0.00',
      pending_mrr: '0.00',
      subscriptions_count: 3,
    });
    expect(sumOfTotalsChanges([])).toEqual({
      total_mrr: '0.00',
      future_mrr: '0.00',
      pending_mrr: '0.00',
      subscriptions_count: 0,
    });
  });
});
