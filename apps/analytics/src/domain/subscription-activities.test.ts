import { describe, expect, it } from 'vitest';
import type { Pricing } from './pricing.js';
import { activitiesOfChange, type SubscriptionChange } from './subscription-activities.js';

const NOW = new Date('2026-01-15T09:00:00Z');
const LATER = new Date('2026-02-15T09:00:00Z');
const price = (status: string, quantity = 2, extra: Partial<Pricing> = {}): Pricing => ({
  terms: 'monthly',
  plan: 'pro',
  status,
  quantity,
  currency: 'DKK',
  unit_price: '100',
  mrr: String(100 * quantity),
  ...extra,
});
const snapshot = (status: string, extra: Partial<SubscriptionChange['subscription']> = {}) => ({
  uuid: 'sub',
  account: 'acc',
  status,
  start_date: NOW,
  cancel_at: null,
  scheduled_change_at: null,
  churn_reason: null,
  custom_churn_reason: null,
  ...extra,
});
const change = (over: Partial<SubscriptionChange>): SubscriptionChange => ({
  change: 'changed',
  effective_at: NOW,
  change_type: '',
  cancellation_type: '',
  old: price('active'),
  new: price('active'),
  scheduled: null,
  subscription: snapshot('active'),
  ...over,
});
const summary = (drafts: ReturnType<typeof activitiesOfChange>['happened']) =>
  drafts.map((d) => ({
    type: d.type,
    date: d.date.toISOString(),
    old_mrr: d.old_mrr.toString(),
    new_mrr: d.new_mrr.toString(),
    key: d.plan_key,
    churn: d.is_churn,
  }));

describe('activitiesOfChange', () => {
  it('a start now is new 0 → m, keyed to the start', () => {
    const result = activitiesOfChange(change({ change: 'activated', old: price('scheduled'), new: price('active') }));
    expect(summary(result.happened)).toEqual([
      { type: 'new', date: NOW.toISOString(), old_mrr: '0', new_mrr: '200', key: 'start', churn: false },
    ]);
    expect(result.planned).toEqual([]);
  });

  it('a start in the future is planned at the start date', () => {
    const result = activitiesOfChange(
      change({
        change: 'created',
        old: null,
        new: price('scheduled'),
        subscription: snapshot('scheduled', { start_date: LATER }),
      }),
    );
    expect(result.happened).toEqual([]);
    expect(summary(result.planned)).toEqual([
      { type: 'new', date: LATER.toISOString(), old_mrr: '0', new_mrr: '200', key: 'start', churn: false },
    ]);
  });

  it('a quantity change now is upgrade_qty, not keyed', () => {
    const result = activitiesOfChange(change({ change_type: 'immediate', new: price('active', 3) }));
    expect(summary(result.happened)).toEqual([
      { type: 'upgrade_qty', date: NOW.toISOString(), old_mrr: '200', new_mrr: '300', key: null, churn: false },
    ]);
  });

  it('a change at renewal is planned, then completed under the same key', () => {
    const dearer = price('active', 2, { terms: 'dearer', unit_price: '150', mrr: '300' });
    const scheduled = activitiesOfChange(
      change({
        change: 'change_scheduled',
        change_type: 'at_renewal',
        effective_at: LATER,
        scheduled: dearer,
        subscription: snapshot('active', { scheduled_change_at: LATER }),
      }),
    );
    expect(scheduled.happened).toEqual([]);
    expect(summary(scheduled.planned)).toEqual([
      {
        type: 'upgrade_subscription',
        date: LATER.toISOString(),
        old_mrr: '200',
        new_mrr: '300',
        key: `change@${LATER.toISOString()}`,
        churn: false,
      },
    ]);
    const applied = activitiesOfChange(change({ change_type: 'at_renewal', effective_at: LATER, new: dearer }));
    expect(summary(applied.happened)).toEqual(summary(scheduled.planned));
  });

  it('a cancellation at renewal is a planned churn; the expiry completes it', () => {
    const scheduled = activitiesOfChange(
      change({
        change: 'cancellation_scheduled',
        cancellation_type: 'at_renewal',
        effective_at: LATER,
        new: price('not_renewing'),
        subscription: snapshot('not_renewing', { cancel_at: LATER }),
      }),
    );
    const churn = {
      type: 'cancel',
      date: LATER.toISOString(),
      old_mrr: '200',
      new_mrr: '0',
      key: `cancel@${LATER.toISOString()}`,
      churn: true,
    };
    expect(summary(scheduled.planned)).toEqual([churn]);
    const expired = activitiesOfChange(
      change({ change: 'expired', effective_at: LATER, old: price('not_renewing'), new: price('expired') }),
    );
    expect(summary(expired.happened)).toEqual([churn]);
  });

  it('reactivating a not_renewing subscription plans nothing more (its cancel is dropped)', () => {
    const result = activitiesOfChange(change({ change: 'reactivated', old: price('not_renewing') }));
    expect(result).toEqual({ happened: [], planned: [], dropAll: false });
  });

  it('reactivating an expired subscription is reactivate 0 → m at the new rate', () => {
    const result = activitiesOfChange(change({ change: 'reactivated', old: price('expired') }));
    expect(summary(result.happened)).toEqual([
      { type: 'reactivate', date: NOW.toISOString(), old_mrr: '0', new_mrr: '200', key: null, churn: false },
    ]);
    expect(result.happened[0]!.renewal).toBe(true);
  });

  it('a renewal is renew m → m', () => {
    const result = activitiesOfChange(change({ change: 'renewed' }));
    expect(summary(result.happened)).toEqual([
      { type: 'renew', date: NOW.toISOString(), old_mrr: '200', new_mrr: '200', key: null, churn: false },
    ]);
  });

  it('cancel_invalid drops everything and records no churn', () => {
    const result = activitiesOfChange(
      change({ change: 'cancelled', cancellation_type: 'cancel_invalid', new: price('expired') }),
    );
    expect(result).toEqual({ happened: [], planned: [], dropAll: true });
  });

  it('a scheduled subscription cancelled before its start churns nothing', () => {
    const result = activitiesOfChange(
      change({ change: 'cancelled', cancellation_type: 'today', old: price('scheduled'), new: price('expired') }),
    );
    expect(result).toEqual({ happened: [], planned: [], dropAll: false });
  });
});
