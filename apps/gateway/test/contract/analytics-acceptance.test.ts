/**
 * Issue 10's acceptance through HTTP on a test clock (Europe/Copenhagen, base DKK): every activity
 * and account activity with its type, date and MRR to the cent, total-mrr after each step, the
 * monthly report, activity months and the retention cohort; another organization sees none of it.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  ACCOUNT_ACTIVITIES,
  accountActivityPath,
  accountActivitySummary,
  activityPath,
  activitySummary,
  readAnalytics,
  totalMrr,
} from './analytics-helpers.js';
import {
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  NOT_FOUND,
  usePlatform,
} from './helpers.js';
import { clockOrganization, SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

async function subscribe(api: ApiClient, account: string, terms: Json, quantity = 1) {
  const response = await api.post(SUBSCRIPTIONS, {
    account,
    terms: terms.uuid,
    quantity,
    collection_method: 'invoice',
  });
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

async function patch(api: ApiClient, uuid: string, body: Json) {
  const response = await api.patch(subscriptionPath(uuid), body);
  expectStatus(response, 200);
}

async function post(api: ApiClient, path: string, body: Json = {}) {
  const response = await api.post(path, body);
  expectStatus(response, 200);
}

// A whole story, about twenty waits for analytics to catch up: 3 s alone, 12 s on a full CI run.
const STORY_TIMEOUT_MS = 90_000;

describe('activities and MRR of a Danish organization', () => {
  it(
    'follow a subscription through its life, to the cent',
    async () => {
      const org = await clockOrganization(platform(), '2026-01-15T09:00:00Z');
      const { api } = org;
      const account = await createAccount(api, 'acme', { company_name: 'Acme ApS' });
      const plan = await createPlan(api, 'pro', { name: 'Pro' });
      const monthly = await createPlanTerms(api, plan.uuid, { code: 'pro-monthly', price: '100', currency: 'DKK' });
      const dearer = await createPlanTerms(api, plan.uuid, { code: 'pro-plus', price: '150', currency: 'DKK' });
      const cheaper = await createPlanTerms(api, plan.uuid, { code: 'pro-lite', price: '80', currency: 'DKK' });
      const yearly = await createPlanTerms(api, plan.uuid, {
        code: 'pro-yearly',
        price: '1200',
        interval_type: 'year',
        currency: 'DKK',
      });
      const weekly = await createPlanTerms(api, plan.uuid, {
        code: 'pro-weekly',
        price: '30',
        interval_type: 'week',
        currency: 'DKK',
      });

      const main = await subscribe(api, account.code as string, monthly, 2);
      expect(await totalMrr(platform(), api)).toEqual(['200.00', '200.00', '0.00', 1]);
      await org.advance('2026-01-16T09:00:00Z');
      await patch(api, main.uuid, { quantity: 3 });
      expect(await totalMrr(platform(), api)).toEqual(['300.00', '300.00', '0.00', 1]);
      await patch(api, main.uuid, { terms: dearer.uuid });
      expect(await totalMrr(platform(), api)).toEqual(['450.00', '450.00', '0.00', 1]);
      await patch(api, main.uuid, { terms: cheaper.uuid });
      expect(await totalMrr(platform(), api)).toEqual(['240.00', '240.00', '0.00', 1]);
      const year = await subscribe(api, account.code as string, yearly);
      const week = await subscribe(api, account.code as string, weekly);
      expect(await totalMrr(platform(), api)).toEqual(['470.00', '470.00', '0.00', 3]);

      await org.advance('2026-01-17T09:00:00Z');
      await post(api, `${subscriptionPath(main.uuid)}cancel/`, { cancellation_type: 'at_renewal' });
      expect(await totalMrr(platform(), api)).toEqual(['470.00', '230.00', '0.00', 3]);
      expect(await activitySummary(platform(), api, '&future=true')).toEqual([
        ['cancel', '2026-02-15T09:00:00.000Z', '240.00', '0.00', '-240.00', '-3', true],
      ]);
      await post(api, `${subscriptionPath(main.uuid)}reactivate/`);
      expect(await totalMrr(platform(), api)).toEqual(['470.00', '470.00', '0.00', 3]);
      expect(await activitySummary(platform(), api, '&future=true')).toEqual([]);

      await org.advance('2026-01-18T09:00:00Z');
      await post(api, `${subscriptionPath(main.uuid)}cancel/`, { cancellation_type: 'today' });
      expect(await totalMrr(platform(), api)).toEqual(['230.00', '230.00', '0.00', 2]);

      const mistake = await subscribe(api, account.code as string, monthly);
      expect(await totalMrr(platform(), api)).toEqual(['330.00', '330.00', '0.00', 3]);
      await post(api, `${subscriptionPath(mistake.uuid)}cancel/`, { cancellation_type: 'cancel_invalid' });
      expect(await totalMrr(platform(), api)).toEqual(['230.00', '230.00', '0.00', 2]);

      // The weekly sibling renews on the 23rd.
      await org.advance('2026-01-23T10:00:00Z');

      expect(
        await activitySummary(
          platform(),
          api,
          '&type=new,upgrade_qty,upgrade_subscription,downgraded_subscription,cancel,renew,reactivate',
        ),
      ).toEqual([
        ['new', '2026-01-15T09:00:00.000Z', '0.00', '200.00', '200.00', '2', false],
        ['upgrade_qty', '2026-01-16T09:00:00.000Z', '200.00', '300.00', '100.00', '1', false],
        ['upgrade_subscription', '2026-01-16T09:00:00.000Z', '300.00', '450.00', '150.00', '0', false],
        ['downgraded_subscription', '2026-01-16T09:00:00.000Z', '450.00', '240.00', '-210.00', '0', false],
        ['new', '2026-01-16T09:00:00.000Z', '0.00', '100.00', '100.00', '1', false],
        ['new', '2026-01-16T09:00:00.000Z', '0.00', '130.00', '130.00', '1', false],
        ['cancel', '2026-01-18T09:00:00.000Z', '240.00', '0.00', '-240.00', '-3', true],
        ['renew', '2026-01-23T09:00:00.000Z', '130.00', '130.00', '0.00', '0', false],
      ]);
      expect(await accountActivitySummary(platform(), api)).toEqual([
        ['new_business', '2026-01-15T09:00:00.000Z', '0.00', '200.00', '200.00', ''],
        ['expansion', '2026-01-16T09:00:00.000Z', '200.00', '300.00', '100.00', ''],
        ['expansion', '2026-01-16T09:00:00.000Z', '300.00', '450.00', '150.00', ''],
        ['contraction', '2026-01-16T09:00:00.000Z', '450.00', '240.00', '-210.00', ''],
        ['expansion', '2026-01-16T09:00:00.000Z', '240.00', '340.00', '100.00', ''],
        ['expansion', '2026-01-16T09:00:00.000Z', '340.00', '470.00', '130.00', ''],
        ['contraction', '2026-01-18T09:00:00.000Z', '470.00', '230.00', '-240.00', ''],
      ]);

      // The month's MRR per subscription: the cancelled one at its last MRR, not active.
      const january = await readAnalytics(platform(), api, '/api/v1/subscriptions/mrr-per-month/?year=2026&month=1');
      const row = (subscription: Json, quantity: number, mrr: number, active: boolean, terms: Json) => ({
        month: '',
        account_uuid: account.uuid,
        subscription_uuid: subscription.uuid,
        company_name: 'Acme ApS',
        legal_country: 'DK',
        collection_method: 'invoice',
        payment_terms: null,
        next_renewal_date: expect.any(String),
        terms_interval_type: terms.interval_type,
        terms_interval_count: 1,
        currency: 'DKK',
        quantity,
        plan_name: 'Pro',
        plan_uuid: plan.uuid,
        revenue_group_id: null,
        revenue_group_name: null,
        mrr,
        active,
        model: 'mrr_row',
        schema: '2026-11-22-mrr_row',
      });
      expect(january).toEqual([
        { ...row(main, 3, 240, false, cheaper), month: '2025-12-31T23:00:00.000Z', next_renewal_date: null },
        { ...row(year, 1, 100, true, yearly), month: '2025-12-31T23:00:00.000Z' },
        { ...row(week, 1, 130, true, weekly), month: '2025-12-31T23:00:00.000Z' },
      ]);
      expect(await readAnalytics(platform(), api, '/api/v1/subscriptions/mrr_per_month/?year=2026&month=1')).toEqual(
        january,
      );
      expect(await readAnalytics(platform(), api, '/api/v1/subscriptions/mrr-per-month/?year=2026&month=2')).toEqual([
        { ...row(year, 1, 100, true, yearly), month: '2026-01-31T23:00:00.000Z' },
        { ...row(week, 1, 130, true, weekly), month: '2026-01-31T23:00:00.000Z' },
      ]);

      // Every activity of January (invoices too), and their MRR change.
      const issued = (await platform().invoiceEvents(org.organizationId)).filter(
        (e) => e.event_type === 'invoice.issued',
      );
      const months = await readAnalytics(platform(), api, '/api/v1/subscriptions/activity-months/');
      expect(months).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            month: '2026-01',
            // The mistaken subscription's invoice and credit note are dropped with it.
            activities: 8 + issued.length - 2,
            mrr_change: '230.00',
            model: 'activity_month',
            schema: '2026-11-22-activity_month',
          },
        ],
      });
      expect(await readAnalytics(platform(), api, '/api/v1/subscriptions/activity_months/')).toEqual(months);

      expect(await readAnalytics(platform(), api, '/api/v1/subscriptions/retention-cohort/')).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            cohort: '2026-01',
            accounts: 1,
            starting_mrr: '200.00',
            periods: [{ period: 0, accounts: 1, mrr: '230.00' }],
            model: 'retention_cohort',
            schema: '2026-11-22-retention_cohort',
          },
        ],
      });

      // A detail, and another organization sees none of it.
      const [first] = (await readAnalytics(platform(), api, `/api/v1/activities/?ordering=date&type=new`)).results;
      expect(first).toEqual({
        uuid: expect.any(String),
        account_uuid: account.uuid,
        account_code: 'acme',
        subscription: main.uuid,
        invoice: null,
        date: '2026-01-15T09:00:00.000Z',
        created_date: '2026-01-15T09:00:00.000Z',
        updated_date: '2026-01-15T09:00:00.000Z',
        type: 'new',
        is_manual: false,
        is_churn: false,
        deleted: false,
        ean_invoice: false,
        old_currency: null,
        new_currency: 'DKK',
        old_mrr_in_subscription_currency: '0',
        new_mrr_in_subscription_currency: '200',
        old_mrr: '0.00',
        new_mrr: '200.00',
        mrr_change: '200.00',
        quantity_change: '2',
        old_quantity: null,
        new_quantity: 2,
        old_terms: null,
        new_terms: monthly.uuid,
        old_terms_name: null,
        new_terms_name: 'pro-monthly',
        old_plan: null,
        new_plan: {
          uuid: plan.uuid,
          name: 'Pro',
          code: 'pro',
          collect_vat: plan.collect_vat,
          vat_type: plan.vat_type,
          model: 'plan',
          schema: '2026-11-22-plan',
        },
        old_plan_name: null,
        new_plan_name: 'Pro',
        company_name: 'Acme ApS',
        model: 'activity',
        schema: '2026-11-22-activity',
      });
      expect((await api.get(activityPath(first.uuid))).body).toEqual(first);
      const [churn] = (await readAnalytics(platform(), api, `${ACCOUNT_ACTIVITIES}?type=contraction&ordering=-date`))
        .results;
      const other = await clockOrganization(platform(), '2026-01-15T09:00:00Z');
      for (const path of [activityPath(first.uuid), accountActivityPath(churn.uuid)]) {
        const response = await other.api.get(path);
        expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 404, body: NOT_FOUND });
      }
      expect((await readAnalytics(platform(), other.api, '/api/v1/activities/')).count).toBe(0);
      expect(await totalMrr(platform(), other.api)).toEqual(['0.00', '0.00', '0.00', 0]);
    },
    STORY_TIMEOUT_MS,
  );
});

describe('a subscription in another currency', () => {
  it('is converted at the organization’s rate, and a new rate reaches its MRR at its next renewal', async () => {
    const org = await clockOrganization(platform(), '2026-01-15T09:00:00Z');
    const { api } = org;
    const rate = (value: string, from: string) =>
      platform().admin(
        'set-exchange-rate',
        '--org',
        org.organizationId,
        '--currency',
        'EUR',
        '--rate',
        value,
        '--from',
        from,
      );
    await rate('7.45', '2026-01-01');
    // Rates reach analytics with accounts' organization.updated (another stream than subscriptions').
    await platform().analyticsCaughtUp();
    const account = await createAccount(api, 'euro', { company_name: 'Euro GmbH', legal_country: 'DE' });
    const plan = await createPlan(api, 'eu', { name: 'EU' });
    const terms = await createPlanTerms(api, plan.uuid, { code: 'eu-monthly', price: '10', currency: 'EUR' });
    await subscribe(api, account.code as string, terms, 3);
    // 30 EUR × 7.45
    expect(await totalMrr(platform(), api)).toEqual(['223.50', '223.50', '0.00', 1]);

    // From February the rate is 7.46: the MRR keeps 7.45 until the renewal on 15 February.
    await rate('7.46', '2026-02-01');
    await platform().analyticsCaughtUp();
    await org.advance('2026-02-10T09:00:00Z');
    expect(await totalMrr(platform(), api)).toEqual(['223.50', '223.50', '0.00', 1]);
    await org.advance('2026-02-15T10:00:00Z');
    expect(await totalMrr(platform(), api)).toEqual(['223.80', '223.80', '0.00', 1]);
    const body = await readAnalytics(
      platform(),
      api,
      '/api/v1/activities/?ordering=date&type=new,currency_exchange,renew',
    );
    expect(
      (body.results as Json[]).map((a) => [
        a.type,
        a.date,
        a.old_currency,
        a.new_currency,
        a.old_mrr_in_subscription_currency,
        a.new_mrr_in_subscription_currency,
        a.old_mrr,
        a.new_mrr,
        a.mrr_change,
      ]),
    ).toEqual([
      ['new', '2026-01-15T09:00:00.000Z', null, 'EUR', '0', '30', '0.00', '223.50', '223.50'],
      ['currency_exchange', '2026-02-15T09:00:00.000Z', 'EUR', 'EUR', '30', '30', '223.50', '223.80', '0.30'],
      ['renew', '2026-02-15T09:00:00.000Z', 'EUR', 'EUR', '30', '30', '223.80', '223.80', '0.00'],
    ]);
    expect(await accountActivitySummary(platform(), api)).toEqual([
      ['new_business', '2026-01-15T09:00:00.000Z', '0.00', '223.50', '223.50', ''],
      ['expansion', '2026-02-15T09:00:00.000Z', '223.50', '223.80', '0.30', ''],
    ]);
  });
});
