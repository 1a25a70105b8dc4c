import { describe, expect, it } from 'vitest';
import type { ActivityRecord } from '../domain/activity-ledger.js';
import { type ActivityNames, heldActivityView } from './activity-news.js';

const ORGANIZATION = '0b6f1a52-1c39-4d6c-9f3e-6a1d2b3c4d5e';
const ACCOUNT = '5a1e2d3c-4b5a-4968-8776-655443322110';
const PLAN = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const TERMS = '1a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d';
const SUBSCRIPTION = 'c0ffee00-1234-4abc-8def-0123456789ab';

const names: ActivityNames = {
  base: 'DKK',
  accounts: new Map([[ACCOUNT, { code: 'acme', company_name: 'Acme ApS', ean_invoicing: true }]]),
  terms: new Map([[TERMS, 'pro-monthly']]),
  plans: new Map([
    [PLAN, { organization_id: ORGANIZATION, name: 'Pro', code: 'pro', collect_vat: true, vat_type: 'standard' }],
  ]),
};

/** A new activity of a subscription, its ids in the forms a producer might write them. */
const record = (overrides: Partial<ActivityRecord> = {}): ActivityRecord => ({
  id: 'F00DF00D-0000-4000-8000-00000000000A',
  organization_id: ORGANIZATION.toUpperCase(),
  account_id: `{${ACCOUNT.toUpperCase()}}`,
  subscription_id: SUBSCRIPTION.replaceAll('-', ''),
  invoice_id: null,
  type: 'new',
  date: new Date('2026-03-01T00:00:00.000Z'),
  created_date: new Date('2026-02-20T09:30:00.123Z'),
  updated_date: new Date('2026-02-20T09:30:00.123Z'),
  is_manual: false,
  is_churn: false,
  deleted: false,
  dropped: false,
  planned: true,
  plan_key: 'start',
  old_currency: null,
  new_currency: 'EUR',
  old_mrr_in_subscription_currency: '0',
  new_mrr_in_subscription_currency: '8.333333333333333333333333333333333333',
  old_mrr: '0.00',
  new_mrr: '62.09',
  mrr_change: '62.09',
  old_quantity: null,
  new_quantity: 1,
  old_terms: null,
  new_terms: TERMS.toUpperCase(),
  old_plan: null,
  new_plan: PLAN.toUpperCase(),
  churn_reason: null,
  custom_churn_reason: null,
  ...overrides,
});

describe('heldActivityView', () => {
  it('shows an activity held in memory as the activity table stores it, joined to its names', () => {
    const { view, plans } = heldActivityView(record(), names);
    expect(view).toEqual({
      uuid: 'f00df00d-0000-4000-8000-00000000000a',
      account_uuid: ACCOUNT,
      account_code: 'acme',
      company_name: 'Acme ApS',
      subscription: SUBSCRIPTION,
      invoice: null,
      date: new Date('2026-03-01T00:00:00.000Z'),
      created_date: new Date('2026-02-20T09:30:00.123Z'),
      updated_date: new Date('2026-02-20T09:30:00.123Z'),
      type: 'new',
      is_manual: false,
      is_churn: false,
      deleted: false,
      ean_invoice: true,
      old_currency: null,
      new_currency: 'EUR',
      old_mrr_in_subscription_currency: '0',
      new_mrr_in_subscription_currency: '8.33333333333333333333',
      old_mrr: '0.00',
      new_mrr: '62.09',
      mrr_change: '62.09',
      quantity_change: '1',
      old_quantity: null,
      new_quantity: 1,
      old_terms: null,
      new_terms: TERMS,
      old_terms_name: null,
      new_terms_name: 'pro-monthly',
      old_plan: null,
      new_plan: PLAN,
      old_plan_name: null,
      new_plan_name: 'Pro',
    });
    expect(plans).toEqual([{ id: PLAN, name: 'Pro', code: 'pro', collect_vat: true, vat_type: 'standard' }]);
  });

  it('embeds no plan of another organization, none without a code, none for a dropped activity', () => {
    const elsewhere: ActivityNames = {
      ...names,
      plans: new Map([[PLAN, { ...names.plans.get(PLAN)!, organization_id: SUBSCRIPTION }]]),
    };
    const uncoded: ActivityNames = { ...names, plans: new Map([[PLAN, { ...names.plans.get(PLAN)!, code: null }]]) };
    expect(heldActivityView(record(), elsewhere).plans).toEqual([]);
    expect(heldActivityView(record(), elsewhere).view.new_plan_name).toBe('Pro');
    expect(heldActivityView(record(), uncoded).plans).toEqual([]);
    const dropped = heldActivityView(record({ dropped: true }), names);
    expect([dropped.view.deleted, dropped.plans]).toEqual([true, []]);
  });

  it('shows an account the read model does not know yet with an empty code and name', () => {
    const { view } = heldActivityView(record(), { ...names, accounts: new Map() });
    expect([view.account_code, view.company_name, view.ean_invoice]).toEqual(['', '', false]);
  });
});
