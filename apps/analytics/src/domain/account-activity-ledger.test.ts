import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import type { MrrMovement } from './account-activities.js';
import { AccountActivityLedger, type AccountActivityRecord } from './account-activity-ledger.js';

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
const move = (source: string, subscription: string, n: number, mrr: string): MrrMovement => ({
  source,
  subscription,
  date: day(n),
  new_mrr: new MoneyDecimal(mrr),
  churn_reason: '',
});
const storedRow = (id: string, source: string, extra: Partial<AccountActivityRecord> = {}): AccountActivityRecord => ({
  id,
  organization_id: 'o',
  account_id: 'acc',
  source_id: source,
  subscription: 's1',
  type: 'new_business',
  date: day(1),
  created_date: day(1),
  old_mrr: '0.00',
  new_mrr: '100.00',
  mrr_change: '100.00',
  churn_reason: '',
  account_first_subscription_start_date: day(1),
  is_manual: false,
  deleted: false,
  dropped: false,
  account_code: null,
  company_name: null,
  ...extra,
});
const ids = () => {
  let n = 0;
  return () => `new-${++n}`;
};

describe('AccountActivityLedger', () => {
  it('writes nothing when a derivation gives what is stored (a renewal at the same MRR)', () => {
    const ledger = new AccountActivityLedger([storedRow('x', 'a1')], ids());
    ledger.rederive('o', 'acc', [move('a1', 's1', 1, '100'), move('a2', 's1', 2, '100')], day(1), day(2));
    expect(ledger.recorded()).toEqual([]);
    expect(ledger.changed()).toEqual([]);
  });

  it('derives after each change as one by one: a row made by one and no longer derived by the next stays, dropped', () => {
    const ledger = new AccountActivityLedger([storedRow('x', 'a1')], ids());
    // s2 starts (expansion, made at day 5), then its start is given up (the expansion is dropped).
    ledger.rederive('o', 'acc', [move('a1', 's1', 1, '100'), move('b1', 's2', 5, '50')], day(1), day(5));
    ledger.rederive('o', 'acc', [move('a1', 's1', 1, '100')], day(1), day(6));
    expect(
      ledger.recorded().map((row) => [row.id, row.source_id, row.type, row.created_date, row.new_mrr, row.dropped]),
    ).toEqual([['new-1', 'b1', 'expansion', day(5), '150.00', true]]);
    expect(ledger.changed()).toEqual([]);
  });

  it('changes a stored row whose derivation changed (its first start, a drop), and keeps accounts apart', () => {
    const ledger = new AccountActivityLedger(
      [storedRow('x', 'a1'), storedRow('y', 'a9'), storedRow('z', 'c1', { account_id: 'other' })],
      ids(),
    );
    ledger.rederive('o', 'acc', [move('a1', 's1', 1, '100')], day(0), day(3));
    expect(ledger.changed().map((row) => [row.id, row.account_first_subscription_start_date, row.dropped])).toEqual([
      ['x', day(0), false],
      ['y', day(1), true],
    ]);
  });
});
