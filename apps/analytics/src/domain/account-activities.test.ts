import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { deriveAccountActivities, type MrrMovement } from './account-activities.js';

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
const move = (source: string, subscription: string, n: number, mrr: string, churn_reason = ''): MrrMovement => ({
  source,
  subscription,
  date: day(n),
  new_mrr: new MoneyDecimal(mrr),
  churn_reason,
});

describe('deriveAccountActivities', () => {
  it('follows the sum over subscriptions: new_business, expansion, contraction, churn, reactivation', () => {
    const drafts = deriveAccountActivities([
      move('a1', 's1', 1, '200'),
      move('a2', 's1', 2, '300'),
      move('a3', 's2', 3, '50'),
      move('a4', 's1', 4, '300'), // renew, no change: nothing
      move('a5', 's1', 5, '0', 'Too expensive'),
      move('a6', 's2', 6, '0', 'Moved'),
      move('a7', 's1', 7, '100'),
    ]);
    expect(
      drafts.map((d) => [
        d.source,
        d.type,
        d.old_mrr.toString(),
        d.new_mrr.toString(),
        d.mrr_change.toString(),
        d.churn_reason,
      ]),
    ).toEqual([
      ['a1', 'new_business', '0', '200', '200', ''],
      ['a2', 'expansion', '200', '300', '100', ''],
      ['a3', 'expansion', '300', '350', '50', ''],
      ['a5', 'contraction', '350', '50', '-300', ''],
      ['a6', 'churn', '50', '0', '-50', 'Moved'],
      ['a7', 'reactivation', '0', '100', '100', ''],
    ]);
  });
});
