import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { mrrFigures } from './subscription-mrr.js';

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
