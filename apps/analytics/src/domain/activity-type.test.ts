import { describe, expect, it } from 'vitest';
import { changeActivityType } from './activity-type.js';
import type { Pricing } from './pricing.js';

const monthly: Pricing = {
  terms: 'terms-a',
  plan: 'plan',
  status: 'active',
  quantity: 2,
  currency: 'DKK',
  unit_price: '100',
  mrr: '200',
};

describe('changeActivityType', () => {
  it('names quantity changes on the same terms and price', () => {
    expect(changeActivityType(monthly, { ...monthly, quantity: 3, mrr: '300' })).toBe('upgrade_qty');
    expect(changeActivityType(monthly, { ...monthly, quantity: 1, mrr: '100' })).toBe('downgrade_qty');
  });
  it('names other terms or prices by the MRR, quantity changing too or not', () => {
    const dearer = { ...monthly, terms: 'terms-b', unit_price: '150', mrr: '300' };
    expect(changeActivityType(monthly, dearer)).toBe('upgrade_subscription');
    expect(changeActivityType(dearer, { ...monthly, quantity: 1, mrr: '100' })).toBe('downgraded_subscription');
    expect(changeActivityType(monthly, { ...monthly, unit_price: '50', quantity: 4, mrr: '200' })).toBe('modified');
  });
  it('is null when nothing that makes MRR changed', () => {
    expect(changeActivityType(monthly, { ...monthly })).toBeNull();
  });
});
