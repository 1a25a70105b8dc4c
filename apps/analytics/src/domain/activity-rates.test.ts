import { MoneyDecimal } from '@billing/money';
import { describe, expect, it } from 'vitest';
import { rateActivities } from './activity-rates.js';
import type { Pricing } from './pricing.js';
import { activitiesOfChange, type SubscriptionChange } from './subscription-activities.js';

const AT = new Date('2026-02-15T09:00:00Z');
const eur: Pricing = {
  terms: 't',
  plan: 'p',
  status: 'active',
  quantity: 1,
  currency: 'EUR',
  unit_price: '100',
  mrr: '100',
};
const renewal: SubscriptionChange = {
  change: 'renewed',
  effective_at: AT,
  change_type: '',
  cancellation_type: '',
  old: eur,
  new: eur,
  scheduled: null,
  subscription: {
    uuid: 's',
    account: 'a',
    status: 'active',
    start_date: AT,
    cancel_at: null,
    scheduled_change_at: null,
    churn_reason: null,
    custom_churn_reason: null,
  },
};
const rates = (activities: ReturnType<typeof rateActivities>['activities']) =>
  activities.map((a) => ({ type: a.type, old_rate: a.old_rate?.toString(), new_rate: a.new_rate?.toString() }));

describe('rateActivities', () => {
  it('a renewal at a new rate is currency_exchange, then renew at the new rate', () => {
    const { happened } = activitiesOfChange(renewal);
    const result = rateActivities(happened, new MoneyDecimal('7.45'), () => new MoneyDecimal('7.46'));
    expect(rates(result.activities)).toEqual([
      { type: 'currency_exchange', old_rate: '7.45', new_rate: '7.46' },
      { type: 'renew', old_rate: '7.46', new_rate: '7.46' },
    ]);
    expect(result.heldRate?.toString()).toBe('7.46');
  });
  it('a renewal at the held rate is renew alone', () => {
    const { happened } = activitiesOfChange(renewal);
    const result = rateActivities(happened, new MoneyDecimal('7.45'), () => new MoneyDecimal('7.45'));
    expect(rates(result.activities)).toEqual([{ type: 'renew', old_rate: '7.45', new_rate: '7.45' }]);
  });
  it('other changes keep the held rate', () => {
    const { happened } = activitiesOfChange({
      ...renewal,
      change: 'changed',
      new: { ...eur, quantity: 2, mrr: '200' },
    });
    const result = rateActivities(happened, new MoneyDecimal('7.45'), () => new MoneyDecimal('9'));
    expect(rates(result.activities)).toEqual([{ type: 'upgrade_qty', old_rate: '7.45', new_rate: '7.45' }]);
    expect(result.heldRate?.toString()).toBe('7.45');
  });
});
