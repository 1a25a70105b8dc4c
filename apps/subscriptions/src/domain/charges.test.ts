import { formatAmount } from '@billing/money';
import { describe, expect, it } from 'vitest';
import {
  type ChargeLine,
  ChargeRuleError,
  type ChargeTerms,
  cancellationCharges,
  immediateChange,
  type Pricing,
  periodChargeDueAt,
  renewalCharge,
} from './charges.js';
import { fromLocal, parseLocalDate, toLocal } from './local-time.js';
import { type Interval, nthRenewal, periodBounds, periodContaining, type RenewalBase } from './periods.js';

const CPH = 'Europe/Copenhagen';
const monthly: Interval = { type: 'month', count: 1 };
const cph = (local: string): Date => {
  const [date = '', time = '00:00'] = local.split('T');
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return fromLocal({ ...parseLocalDate(date), hour, minute, second: 0, millisecond: 0 }, CPH);
};
const base = (local: string): RenewalBase => ({ instant: cph(local), timeZone: CPH });
const terms = (over: Partial<ChargeTerms> = {}): ChargeTerms => ({
  price: '100.00',
  currency: 'DKK',
  interval: monthly,
  backwards_charging: false,
  ...over,
});
const sub = (quantity: number, over: Partial<ChargeTerms> = {}, extra: Partial<Pricing> = {}): Pricing => ({
  terms: terms(over),
  quantity,
  ...extra,
});
/** The parts of a line a person checks. */
const brief = (l: ChargeLine) => ({
  kind: l.kind,
  date_from: l.date_from,
  date_to: l.date_to,
  days: `${l.days}/${l.period_days}`,
  quantity: l.quantity,
  amount: formatAmount(l.amount, l.currency),
  due_at: l.due_at.toISOString(),
});
const localDay = (instant: Date) => {
  const l = toLocal(instant, CPH);
  return `${l.year}-${String(l.month).padStart(2, '0')}-${String(l.day).padStart(2, '0')}`;
};

describe('issue 3 acceptance: renewals', () => {
  it('monthly forward 100.00 × 2 from 15 Jan 2026: 200.00 for 15 Jan – 14 Feb, next renewal 15 Feb, then 15 Feb – 14 Mar', () => {
    const b = base('2026-01-15T10:00');
    const first = periodBounds(b, monthly, 0);
    expect(brief(renewalCharge(sub(2), first, CPH))).toEqual({
      kind: 'renewal',
      date_from: '2026-01-15',
      date_to: '2026-02-14',
      days: '31/31',
      quantity: 2,
      amount: '200.00',
      due_at: '2026-01-15T09:00:00.000Z',
    });
    expect(localDay(first.end)).toBe('2026-02-15');
    const second = periodContaining(b, monthly, cph('2026-02-15T10:00'));
    expect(brief(renewalCharge(sub(2), second, CPH))).toEqual({
      kind: 'renewal',
      date_from: '2026-02-15',
      date_to: '2026-03-14',
      days: '28/28',
      quantity: 2,
      amount: '200.00',
      due_at: '2026-02-15T09:00:00.000Z',
    });
  });

  it('start 31 Jan monthly: charges for 31 Jan – 27 Feb, 28 Feb – 30 Mar, 31 Mar – 29 Apr (2028: 29 Feb)', () => {
    const ranges = (b: RenewalBase) =>
      [0, 1, 2].map((n) => {
        const l = renewalCharge(sub(1), periodBounds(b, monthly, n), CPH);
        return `${l.date_from}..${l.date_to} ${formatAmount(l.amount, 'DKK')}`;
      });
    expect(ranges(base('2026-01-31T10:00'))).toEqual([
      '2026-01-31..2026-02-27 100.00',
      '2026-02-28..2026-03-30 100.00',
      '2026-03-31..2026-04-29 100.00',
    ]);
    expect(ranges(base('2028-01-31T10:00'))).toEqual([
      '2028-01-31..2028-02-28 100.00',
      '2028-02-29..2028-03-30 100.00',
      '2028-03-31..2028-04-29 100.00',
    ]);
    expect(localDay(nthRenewal(base('2026-01-31T10:00'), monthly, 3))).toBe('2026-04-30');
  });

  it('backwards charging: nothing at the start, the elapsed period at its end', () => {
    const period = periodBounds(base('2026-01-15T10:00'), monthly, 0);
    const backwards = sub(2, { backwards_charging: true });
    expect(periodChargeDueAt(backwards.terms, period, CPH)).toEqual(period.end);
    expect(brief(renewalCharge(backwards, period, CPH))).toEqual({
      kind: 'renewal',
      date_from: '2026-01-15',
      date_to: '2026-02-14',
      days: '31/31',
      quantity: 2,
      amount: '200.00',
      due_at: '2026-02-15T09:00:00.000Z',
    });
  });

  it('forward charging with pre_renewal_days_offset is due that many local days before the start', () => {
    const period = periodBounds(base('2026-01-15T10:00'), monthly, 3); // 15 Apr (summer time)
    expect(renewalCharge(sub(1), period, CPH, { preRenewalDaysOffset: 20 }).due_at.toISOString()).toBe(
      '2026-03-26T09:00:00.000Z', // 26 Mar 10:00 winter time
    );
  });

  it('ISK amounts are whole krona', () => {
    const b = base('2026-01-15T10:00');
    const isk = sub(3, { price: '1499.50', currency: 'ISK' });
    expect(formatAmount(renewalCharge(isk, periodBounds(b, monthly, 0), CPH).amount, 'ISK')).toBe('4499'); // 4498.5
    const change = immediateChange({ from: isk, to: { ...isk, quantity: 4 }, base: b, at: cph('2026-02-01T12:00') });
    // 14 of 31 days remain: 4498.5 × 14/31 = 2031.58… → 2032; 5998 × 14/31 = 2708.77… → 2709
    expect(change.lines.map((l) => formatAmount(l.amount, 'ISK'))).toEqual(['-2032', '2709']);
  });

  it('records the pricing applied on each line (tiers, override)', () => {
    const contract = {
      exclusive_tiers: true,
      tiers: [{ minimum_quantity: 5, maximum_quantity: null, discount: '10', discount_type: 'percentage' as const }],
    };
    const l = renewalCharge(
      sub(5, {}, { override_price: '80.00', contract }),
      periodBounds(base('2026-01-15T10:00'), monthly, 0),
      CPH,
    );
    expect(formatAmount(l.amount, 'DKK')).toBe('360.00');
    expect(l.price.price_source).toBe('override');
    expect(l.price.tiers_applied.map((t) => t.amount_off_per_unit.toFixed())).toEqual(['8']);
    expect(l.price.discounted_unit_price.toFixed()).toBe('72');
  });
});

describe('issue 3 acceptance: immediate change', () => {
  const b = base('2026-02-01T00:00'); // February 2026: a 28-day period

  it('quantity 2 → 3 on day 11 of a 28-day period: credit 18 days at 2, charge 18 days at 3, period kept', () => {
    const at = cph('2026-02-11T09:30');
    const result = immediateChange({ from: sub(2), to: sub(3), base: b, at });
    expect(result.lines.map(brief)).toEqual([
      {
        kind: 'change_credit',
        date_from: '2026-02-11',
        date_to: '2026-02-28',
        days: '18/28',
        quantity: 2,
        amount: '-128.57',
        due_at: at.toISOString(),
      },
      {
        kind: 'change_charge',
        date_from: '2026-02-11',
        date_to: '2026-02-28',
        days: '18/28',
        quantity: 3,
        amount: '192.86',
        due_at: at.toISOString(),
      },
    ]);
    expect(result.newPeriod).toBe(false);
    expect(result.base).toBe(b);
    expect([result.period.dateFrom, result.period.dateTo]).toEqual(['2026-02-01', '2026-02-28']);
  });

  it('another interval starts a new period now, charged whole at the new terms', () => {
    const at = cph('2026-02-11T09:30');
    const yearly = sub(3, { interval: { type: 'year', count: 1 }, price: '1000.00' });
    const result = immediateChange({ from: sub(2), to: yearly, base: b, at });
    expect(result.lines.map(brief)).toEqual([
      expect.objectContaining({ kind: 'change_credit', amount: '-128.57', days: '18/28' }),
      expect.objectContaining({
        kind: 'change_charge',
        date_from: '2026-02-11',
        date_to: '2027-02-10',
        days: '365/365',
        amount: '3000.00',
      }),
    ]);
    expect(result.newPeriod).toBe(true);
    expect(result.base.instant).toEqual(at);
    expect(result.period.end.toISOString()).toBe('2027-02-11T08:30:00.000Z');
  });

  it('early_renewal with the same interval also starts a new period now', () => {
    const at = cph('2026-02-11T09:30');
    const result = immediateChange({ from: sub(2), to: sub(2), base: b, at, early_renewal: true });
    expect(result.lines.map((l) => [l.kind, l.date_from, l.date_to, formatAmount(l.amount, 'DKK')])).toEqual([
      ['change_credit', '2026-02-11', '2026-02-28', '-128.57'],
      ['change_charge', '2026-02-11', '2026-03-10', '200.00'],
    ]);
    expect(result.newPeriod).toBe(true);
  });

  it('a change on the first day credits and charges the whole period', () => {
    const result = immediateChange({ from: sub(2), to: sub(3), base: b, at: cph('2026-02-01T00:00') });
    expect(result.lines.map((l) => formatAmount(l.amount, 'DKK'))).toEqual(['-200.00', '300.00']);
  });

  it('backwards terms: the elapsed days at the old price and the rest at the new one, both at period end', () => {
    const at = cph('2026-02-11T09:30');
    const from = sub(2, { backwards_charging: true });
    const to = sub(3, { backwards_charging: true });
    const result = immediateChange({ from, to, base: b, at });
    const end = result.period.end.toISOString();
    expect(result.lines.map(brief)).toEqual([
      {
        kind: 'change_elapsed',
        date_from: '2026-02-01',
        date_to: '2026-02-10',
        days: '10/28',
        quantity: 2,
        amount: '71.43', // 2×100×10/28 = 71.428…
        due_at: end,
      },
    ]);
    expect(brief(renewalCharge(to, result.period, CPH, { since: at }))).toEqual({
      kind: 'renewal',
      date_from: '2026-02-11',
      date_to: '2026-02-28',
      days: '18/28',
      quantity: 3,
      amount: '192.86',
      due_at: end,
    });
    // A second change in the same period charges only the days since the first one.
    const later = cph('2026-02-21T12:00');
    const second = immediateChange({
      from: to,
      to: sub(1, { backwards_charging: true }),
      base: b,
      at: later,
      since: at,
    });
    expect(second.lines.map(brief)).toEqual([
      expect.objectContaining({
        kind: 'change_elapsed',
        date_from: '2026-02-11',
        date_to: '2026-02-20',
        amount: '107.14',
      }),
    ]);
  });

  it('refuses another currency and a change before the start', () => {
    expect(() =>
      immediateChange({ from: sub(1), to: sub(1, { currency: 'EUR' }), base: b, at: cph('2026-02-11T00:00') }),
    ).toThrow(ChargeRuleError);
    expect(() => immediateChange({ from: sub(1), to: sub(2), base: b, at: cph('2026-01-11T00:00') })).toThrow(
      ChargeRuleError,
    );
  });
});

describe('cancellation lines', () => {
  const b = base('2026-02-01T00:00');
  const at = cph('2026-02-11T09:30');

  it('forward: today credits the unused remainder, full_refund the whole period', () => {
    expect(cancellationCharges(sub(2), b, at, 'today').map(brief)).toEqual([
      expect.objectContaining({
        kind: 'cancel_credit',
        date_from: '2026-02-11',
        date_to: '2026-02-28',
        amount: '-128.57',
      }),
    ]);
    expect(cancellationCharges(sub(2), b, at, 'full_refund').map(brief)).toEqual([
      expect.objectContaining({
        kind: 'cancel_credit',
        date_from: '2026-02-01',
        date_to: '2026-02-28',
        amount: '-200.00',
      }),
    ]);
    const afterChange = cancellationCharges(sub(3), b, at, 'full_refund', { charged: '264.29' });
    expect(formatAmount(afterChange[0]!.amount, 'DKK')).toBe('-264.29');
    // On the period's last moment nothing remains.
    expect(cancellationCharges(sub(2), b, cph('2026-02-28T23:59'), 'today').map((l) => l.days)).toEqual([1]);
  });

  it('backwards: today invoices the days used, full_refund invoices nothing', () => {
    const backwards = sub(2, { backwards_charging: true });
    expect(cancellationCharges(backwards, b, at, 'today').map(brief)).toEqual([
      {
        kind: 'cancel_elapsed',
        date_from: '2026-02-01',
        date_to: '2026-02-10',
        days: '10/28',
        quantity: 2,
        amount: '71.43',
        due_at: at.toISOString(),
      },
    ]);
    expect(cancellationCharges(backwards, b, at, 'full_refund')).toEqual([]);
    expect(cancellationCharges(backwards, b, cph('2026-02-01T05:00'), 'today')).toEqual([]);
  });
});
