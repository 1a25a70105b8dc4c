import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import type { ActivityContext } from './activity-columns.js';
import { ActivityLedger, type ActivityRecord } from './activity-ledger.js';
import type { RatedActivity } from './activity-rates.js';
import type { Pricing } from './pricing.js';

const at = (day: number) => new Date(Date.UTC(2026, 0, day, 9));
const pricing = (quantity: number): Pricing => ({
  terms: 't',
  plan: 'p',
  status: 'active',
  quantity,
  currency: 'DKK',
  unit_price: '100',
  mrr: String(100 * quantity),
});
const context = (day: number, extra: Partial<ActivityContext> = {}): ActivityContext => ({
  organizationId: 'o',
  accountId: 'acc',
  subscriptionId: 's',
  baseCurrency: 'DKK',
  churnReason: 'r',
  customChurnReason: null,
  now: at(day),
  ...extra,
});
const rated = (type: RatedActivity['type'], day: number, extra: Partial<RatedActivity> = {}): RatedActivity => ({
  type,
  date: at(day),
  old: pricing(1),
  new: pricing(2),
  old_mrr: new MoneyDecimal(100),
  new_mrr: new MoneyDecimal(200),
  is_churn: false,
  plan_key: null,
  planned: false,
  renewal: false,
  old_rate: new MoneyDecimal(1),
  new_rate: new MoneyDecimal(1),
  ...extra,
});
const stored = (id: string, seq: number, extra: Partial<ActivityRecord>): { record: ActivityRecord; seq: number } => ({
  seq,
  record: {
    id,
    organization_id: 'o',
    account_id: 'acc',
    subscription_id: 's',
    invoice_id: null,
    type: 'new',
    date: at(1),
    created_date: at(1),
    updated_date: at(1),
    is_manual: false,
    is_churn: false,
    deleted: false,
    dropped: false,
    planned: false,
    plan_key: null,
    old_currency: null,
    new_currency: 'DKK',
    old_mrr_in_subscription_currency: '0',
    new_mrr_in_subscription_currency: '100',
    old_mrr: '0.00',
    new_mrr: '100.00',
    mrr_change: '100.00',
    old_quantity: null,
    new_quantity: 1,
    old_terms: null,
    new_terms: 't',
    old_plan: null,
    new_plan: 'p',
    churn_reason: null,
    custom_churn_reason: null,
    ...extra,
  },
});
const ids = () => {
  let n = 0;
  return () => `new-${++n}`;
};

describe('ActivityLedger', () => {
  it('records new rows in order after the stored ones, and completes a planned row of the same key', () => {
    const ledger = new ActivityLedger(
      [
        stored('start', 1, { plan_key: 'start' }),
        stored('cancel', 2, { type: 'cancel', plan_key: 'cancel@x', planned: true, date: at(20), new_mrr: '0.00' }),
      ],
      ids(),
    );
    expect(ledger.save(rated('upgrade_qty', 5), context(5))).toBe('new-1');
    expect(ledger.save(rated('cancel', 20, { plan_key: 'cancel@x', is_churn: true }), context(6))).toBeNull();
    expect(ledger.recorded().map((row) => [row.id, row.type, row.created_date, row.new_mrr])).toEqual([
      ['new-1', 'upgrade_qty', at(5), '200.00'],
    ]);
    expect(
      ledger.changed().map((row) => [row.id, row.planned, row.dropped, row.updated_date, row.churn_reason]),
    ).toEqual([['cancel', false, false, at(6), 'r']]);
  });

  it('does not plan again a row that happened, and drops planned rows no longer planned', () => {
    const ledger = new ActivityLedger(
      [
        stored('done', 1, { plan_key: 'change@a' }),
        stored('kept', 2, { plan_key: 'change@b', planned: true }),
        stored('given-up', 3, { plan_key: 'cancel@c', planned: true }),
      ],
      ids(),
    );
    expect(ledger.save(rated('upgrade_qty', 9, { plan_key: 'change@a', planned: true }), context(7))).toBeNull();
    ledger.dropPlannedExcept('s', ['change@a', 'change@b'], at(7));
    expect(ledger.changed().map((row) => [row.id, row.planned, row.dropped, row.updated_date])).toEqual([
      ['given-up', false, true, at(7)],
    ]);
    expect(ledger.counts('given-up')).toBe(false);
    expect(ledger.counts('kept')).toBe(true);
  });

  it('drops every row of a subscription (cancel_invalid), invoice activities too, and no other subscription’s', () => {
    const ledger = new ActivityLedger(
      [
        stored('a', 1, {}),
        stored('invoice', 2, { type: 'invoice_sent', new_mrr: null }),
        stored('other', 3, { subscription_id: 's2' }),
        stored('gone', 4, { dropped: true, updated_date: at(2) }),
      ],
      ids(),
    );
    ledger.dropAll('s', at(8));
    expect(ledger.changed().map((row) => [row.id, row.dropped, row.updated_date])).toEqual([
      ['a', true, at(8)],
      ['invoice', true, at(8)],
    ]);
  });

  it('reads the account’s movements by date then recording order, without invoice, dropped or deleted rows', () => {
    const ledger = new ActivityLedger(
      [
        stored('late', 1, { date: at(10), new_mrr: '300.00' }),
        stored('early', 5, { date: at(3), new_mrr: '100.00', churn_reason: 'r1', custom_churn_reason: 'custom' }),
        stored('invoice', 6, { type: 'invoice_sent', date: at(4), new_mrr: null }),
        stored('deleted', 7, { date: at(4), deleted: true }),
        stored('elsewhere', 8, { account_id: 'acc2', subscription_id: 's2' }),
      ],
      ids(),
    );
    ledger.save(rated('upgrade_qty', 10), context(11));
    const movements = ledger.movements('o', 'acc', (reason) => (reason === 'r1' ? 'Too dear' : null));
    expect(movements.map((m) => [m.source, m.date, m.new_mrr?.toString(), m.churn_reason])).toEqual([
      ['early', at(3), '100', 'Too dear'],
      ['late', at(10), '300', ''],
      ['new-1', at(10), '200', ''],
    ]);
  });
});
