import type { accountsV1, subscriptionsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { needsOrganizationPaymentTerms, presentSubscription, type SubscriptionEmbeds } from './subscription.js';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const REASON = '22222222-2222-4222-8222-222222222222';

const subscription = (overrides: Partial<subscriptionsV1.Subscription> = {}): subscriptionsV1.Subscription => ({
  uuid: '33333333-3333-4333-8333-333333333333',
  version: 1,
  account: ACCOUNT,
  terms: {
    uuid: '44444444-4444-4444-8444-444444444444',
    plan: '55555555-5555-4555-8555-555555555555',
    code: 'pro-monthly',
    interval_type: 'month',
    interval_count: 1,
    price: '100.00',
    currency: 'DKK',
    backwards_charging: false,
    active: true,
  },
  plan: {
    uuid: '55555555-5555-4555-8555-555555555555',
    name: 'Pro',
    code: 'pro',
    description: 'not embedded',
    collect_vat: true,
    vat_type: 'services',
    planterms: [],
  },
  start_date: new Date('2026-01-15T09:00:00Z'),
  created_date: new Date('2026-01-15T09:00:00Z'),
  last_modified_date: new Date('2026-01-15T09:00:00Z'),
  next_renewal_date: new Date('2026-02-15T09:00:00Z'),
  quantity: 2,
  collection_method: 'invoice',
  group_on_invoice: false,
  is_auto_renew_enabled: true,
  pre_renewal_days_offset: 0,
  pre_renewal_invoicing: false,
  po_number: '',
  reference_person: '',
  account_reference_person: '',
  case_number: '',
  status: 'active',
  current_mrr: '200.00',
  committed_mrr: '200.00',
  final_price: '200.00',
  scheduled_changes: [],
  ...overrides,
});

const summary = (paymentTerms?: number): accountsV1.AccountSummary => ({
  uuid: ACCOUNT,
  code: 'acme',
  display_name: 'Acme ApS',
  company_name: 'Acme ApS',
  type: 'company',
  ...(paymentTerms === undefined ? {} : { payment_terms: paymentTerms }),
});

const embeds = (overrides: Partial<SubscriptionEmbeds> = {}): SubscriptionEmbeds => ({
  accounts: new Map([[ACCOUNT, summary()]]),
  churnReasons: new Map(),
  organizationPaymentTerms: 14,
  ...overrides,
});

describe('presentSubscription', () => {
  it('embeds the minimal account, the plan without its terms, and formats timestamps in UTC', () => {
    const body = presentSubscription(subscription(), embeds());

    expect(body.account).toEqual({
      uuid: ACCOUNT,
      display_name: 'Acme ApS',
      company_name: 'Acme ApS',
      code: 'acme',
      type: 'company',
      model: 'account',
      schema: '2026-11-22-account',
    });
    expect(body.plan).toEqual({
      uuid: '55555555-5555-4555-8555-555555555555',
      name: 'Pro',
      code: 'pro',
      collect_vat: true,
      vat_type: 'services',
      model: 'plan',
      schema: '2026-11-22-plan',
    });
    expect(body).toMatchObject({
      account_uuid: ACCOUNT,
      account_code: 'acme',
      start_date: '2026-01-15T09:00:00.000Z',
      end_date: null,
      next_renewal_date: '2026-02-15T09:00:00.000Z',
      last_renewal_date: null,
      payment_terms: null,
      override_price: null,
      invoice_supplement: null,
      churn_reason: null,
      custom_churn_reason: null,
      custom_fields: {},
      model: 'subscription',
      schema: '2026-11-22-subscription',
    });
  });

  it.each([
    ['the subscription’s own', { payment_terms: 0 }, 30, '0'],
    ['else the account’s default', {}, 30, '30'],
    ['else the organization’s', {}, undefined, '14'],
  ])('effective_payment_terms: %s', (_case, overrides, accountTerms, expected) => {
    const accounts = new Map([[ACCOUNT, summary(accountTerms)]]);
    const body = presentSubscription(subscription(overrides), embeds({ accounts }));

    expect(body.effective_payment_terms).toBe(expected);
  });

  it('asks for the organization’s payment terms only when neither the subscription nor its account has them', () => {
    expect(needsOrganizationPaymentTerms(subscription(), new Map([[ACCOUNT, summary()]]))).toBe(true);
    expect(needsOrganizationPaymentTerms(subscription(), new Map([[ACCOUNT, summary(0)]]))).toBe(false);
    expect(needsOrganizationPaymentTerms(subscription({ payment_terms: 5 }), new Map())).toBe(false);
  });

  it('shows account null (and account_code null) once the account no longer exists', () => {
    const body = presentSubscription(subscription(), embeds({ accounts: new Map() }));

    expect(body).toMatchObject({ account: null, account_uuid: ACCOUNT, account_code: null });
  });

  it('embeds the churn reason, scheduled changes with their model, and keeps decimals as given', () => {
    const reason = { uuid: REASON, name: 'Too expensive', is_active: false, deleted: true };
    const body = presentSubscription(
      subscription({
        churn_reason: REASON,
        override_price: '79.50',
        scheduled_changes: [
          {
            uuid: '66666666-6666-4666-8666-666666666666',
            date: new Date('2026-02-15T09:00:00Z'),
            terms: '44444444-4444-4444-8444-444444444444',
            quantity: 3,
            change_type: 'at_renewal',
          },
        ],
      }),
      embeds({ churnReasons: new Map([[REASON, reason]]) }),
    );

    expect(body.churn_reason).toEqual({
      uuid: REASON,
      name: 'Too expensive',
      is_active: false,
      model: 'churn_reason',
      schema: '2026-11-22-churn_reason',
    });
    expect(body.override_price).toBe('79.50');
    expect(body.scheduled_changes).toEqual([
      {
        uuid: '66666666-6666-4666-8666-666666666666',
        date: '2026-02-15T09:00:00.000Z',
        terms: '44444444-4444-4444-8444-444444444444',
        quantity: 3,
        change_type: 'at_renewal',
        model: 'scheduled_change',
        schema: '2026-11-22-scheduled_change',
      },
    ]);
  });
});
