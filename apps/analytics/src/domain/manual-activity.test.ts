import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { manualActivityType, type RecordedMrr } from './manual-activity.js';

const mrr = (terms: string, quantity: number, value: string): RecordedMrr => ({
  terms,
  quantity,
  mrr: new MoneyDecimal(value),
});

describe('manualActivityType', () => {
  it('from nothing is new, after a cancel reactivate', () => {
    expect(manualActivityType(null, mrr('t', 1, '100'), false)).toBe('new');
    expect(manualActivityType(mrr('t', 1, '0'), mrr('t', 1, '100'), true)).toBe('reactivate');
  });
  it('to 0 is cancel', () => {
    expect(manualActivityType(mrr('t', 2, '200'), mrr('t', 2, '0'), false)).toBe('cancel');
  });
  it('the same terms with another quantity is a quantity change', () => {
    expect(manualActivityType(mrr('t', 2, '200'), mrr('t', 3, '300'), false)).toBe('upgrade_qty');
    expect(manualActivityType(mrr('t', 2, '200'), mrr('t', 1, '100'), false)).toBe('downgrade_qty');
  });
  it('other terms or MRR by the MRR', () => {
    expect(manualActivityType(mrr('t', 2, '200'), mrr('u', 2, '300'), false)).toBe('upgrade_subscription');
    expect(manualActivityType(mrr('t', 2, '200'), mrr('u', 2, '100'), false)).toBe('downgraded_subscription');
    expect(manualActivityType(mrr('t', 2, '200'), mrr('u', 2, '200'), false)).toBe('modified');
  });
});
