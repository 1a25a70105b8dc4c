/**
 * The activity endpoints (api-spec "Activities", gaps.md §8, docs/analytics.md): filters and their
 * 400s, manual activities and account activities (POST, PUT/PATCH of manual ones only, DELETE
 * marking deleted), total-mrr's filters, and another organization's objects answering 404.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_ACTIVITIES,
  ACTIVITIES,
  accountActivityPath,
  activityPath,
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
  newOrganization,
  REQUIRED,
  usePlatform,
} from './helpers.js';
import { SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

/** An organization with an account subscribed to 2 x 100.00 DKK monthly (MRR 200.00). */
async function subscribed() {
  const organization = await newOrganization(platform());
  const { api } = organization;
  const account = await createAccount(api, 'acme', { company_name: 'Acme ApS' });
  const plan = await createPlan(api, 'pro', { name: 'Pro' });
  const terms = await createPlanTerms(api, plan.uuid, { code: 'pro-monthly', price: '100', currency: 'DKK' });
  const created = await api.post(SUBSCRIPTIONS, {
    account: 'acme',
    terms: terms.uuid,
    quantity: 2,
    collection_method: 'invoice',
  });
  expectStatus(created, 201);
  const body = await readAnalytics(platform(), api, `${ACTIVITIES}?type=new`);
  return {
    ...organization,
    account,
    plan,
    terms,
    subscription: created.body as Json & { uuid: string },
    activity: body.results[0] as Json & { uuid: string },
  };
}

describe('activity filters', () => {
  it('refuse values they cannot use with 400 naming the filter', async () => {
    const { api } = await newOrganization(platform());
    const cases: Array<[string, Json]> = [
      ['type=new,sold', { type: ['Select a valid choice. sold is not one of the available choices.'] }],
      [
        'activity_type=renewal',
        { activity_type: ['Select a valid choice. renewal is not one of the available choices.'] },
      ],
      ['mrr_change_type=up', { mrr_change_type: ['Select a valid choice. up is not one of the available choices.'] }],
      ['future=maybe', { future: ['Select a valid choice. maybe is not one of the available choices.'] }],
      ['subscription_uuid=42', { subscription_uuid: ['Enter a valid UUID.'] }],
      ['created_date__org_tz_gte=2026-13-01', { created_date__org_tz_gte: ['Enter a valid date.'] }],
      ['activity_date__gte=yesterday', { activity_date__gte: ['Enter a valid date/time.'] }],
    ];
    for (const [query, body] of cases) {
      const response = await api.get(`${ACTIVITIES}?${query}`);
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 400, body });
    }
    const response = await api.get(`${ACCOUNT_ACTIVITIES}?type=expansion,upsell`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ type: ['Select a valid choice. upsell is not one of the available choices.'] });
  });

  it('select by type lists, MRR change, account, subscription and date; future ones only with future=true', async () => {
    const { api, subscription } = await subscribed();
    const cancel = await api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'at_renewal' });
    expectStatus(cancel, 200);
    const types = async (query: string) =>
      ((await readAnalytics(platform(), api, `${ACTIVITIES}?${query}`)).results as Json[]).map((a) => a.type);
    expect(await types('type=new,cancel&ordering=date')).toEqual(['new', 'cancel']);
    expect(await types('type=new,cancel')).toEqual(['cancel', 'new']);
    expect(await types('mrr_change_type=decrease')).toEqual(['cancel']);
    expect(await types('future=true')).toEqual(['cancel']);
    expect(await types('future=false&mrr_change_type=increase')).toEqual(['new']);
    expect(await types('account=acme&type=new')).toEqual(['new']);
    expect(await types('account=nobody')).toEqual([]);
    expect(await types(`subscription_uuid=${subscription.uuid}&activity_date__gte=2026-02-15&type=cancel`)).toEqual([
      'cancel',
    ]);
    expect(await types('activity_date__lte=2026-01-15&type=new,cancel')).toEqual(['new']);
    expect(await types('since=2026-01-16')).toEqual([]);
    expect(await types('since=2026-02-15&use_activity_date=true&type=new,cancel')).toEqual(['cancel']);
  });
});

describe('manual activities', () => {
  it('POST makes one from the subscription’s MRR before its date; PUT and PATCH change only manual ones', async () => {
    const { api, subscription, terms, activity, account } = await subscribed();
    const created = await api.post(ACTIVITIES, {
      subscription: subscription.uuid,
      date: '2026-01-20T00:00:00Z',
      quantity: 3,
      terms: terms.uuid,
      mrr: '300',
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      account_uuid: account.uuid,
      account_code: 'acme',
      subscription: subscription.uuid,
      date: '2026-01-20T00:00:00.000Z',
      type: 'upgrade_qty',
      is_manual: true,
      deleted: false,
      old_mrr: '200.00',
      new_mrr: '300.00',
      mrr_change: '100.00',
      old_quantity: 2,
      new_quantity: 3,
      quantity_change: '1',
      new_terms_name: 'pro-monthly',
      model: 'activity',
    });
    const patched = await api.patch(activityPath(created.body.uuid), { mrr: '150' });
    expectStatus(patched, 200);
    expect([patched.body.type, patched.body.new_mrr, patched.body.mrr_change]).toEqual([
      'upgrade_qty',
      '150.00',
      '-50.00',
    ]);
    const refused = await api.put(activityPath(activity.uuid), {
      subscription: subscription.uuid,
      date: '2026-01-20T00:00:00Z',
      quantity: 3,
      terms: terms.uuid,
      mrr: '300',
    });
    expect([refused.status, refused.body]).toEqual([400, { detail: 'Only manual activities can be changed.' }]);

    const invalid = await api.post(ACTIVITIES, { subscription: subscription.uuid, quantity: 0, terms: 'x', mrr: 'a' });
    expect([invalid.status, invalid.body]).toEqual([
      400,
      {
        date: [REQUIRED],
        quantity: ['Ensure this value is greater than or equal to 1.'],
        terms: ['Must be a valid UUID.'],
        mrr: ['A valid number is required.'],
      },
    ]);
    const unknown = await api.post(ACTIVITIES, {
      subscription: null,
      account: 'nobody',
      date: '2026-01-20T00:00:00Z',
      quantity: 1,
      terms: terms.uuid,
      mrr: '10',
    });
    expect([unknown.status, unknown.body]).toEqual([400, { account: ['Object with code=nobody does not exist.'] }]);
    // The account's MRR follows the manual activity: 200 → 150 is a contraction.
    const account_activities = await readAnalytics(platform(), api, `${ACCOUNT_ACTIVITIES}?ordering=date`);
    expect((account_activities.results as Json[]).map((a) => [a.type, a.old_mrr, a.new_mrr])).toEqual([
      ['new_business', '0.00', '200.00'],
      ['contraction', '200.00', '150.00'],
    ]);
  });

  it('DELETE marks deleted (204): left out of lists unless deleted=true; the account’s activities follow', async () => {
    const { api, activity } = await subscribed();
    const response = await api.delete(activityPath(activity.uuid));
    expect(response.status).toBe(204);
    expect((await readAnalytics(platform(), api, `${ACTIVITIES}?type=new`)).count).toBe(0);
    const deleted = await readAnalytics(platform(), api, `${ACTIVITIES}?deleted=true`);
    expect((deleted.results as Json[]).map((a) => [a.uuid, a.deleted])).toEqual([[activity.uuid, true]]);
    expect((await api.get(activityPath(activity.uuid))).body.deleted).toBe(true);
    expect((await readAnalytics(platform(), api, ACCOUNT_ACTIVITIES)).count).toBe(0);
    expect(await totalMrr(platform(), api)).toEqual(['200.00', '200.00', '0.00', 1]);
  });
});

describe('manual account activities', () => {
  it('POST, PATCH and DELETE manual ones; derived ones refuse PUT with 400 {detail}', async () => {
    const { api, account } = await subscribed();
    const body = {
      account_uuid: account.uuid,
      account_code: 'acme',
      company_name: 'Acme ApS',
      type: 'expansion',
      old_mrr: '200.00',
      new_mrr: '260.00',
      date: '2026-01-20T00:00:00Z',
      subscription: null,
      churn_reason: '',
      account_first_subscription_start_date: '2026-01-15T09:00:00Z',
    };
    const created = await api.post(ACCOUNT_ACTIVITIES, body);
    expectStatus(created, 201);
    expect(created.body).toEqual({
      uuid: expect.any(String),
      account_uuid: account.uuid,
      account_code: 'acme',
      company_name: 'Acme ApS',
      type: 'expansion',
      mrr_change: '60.00',
      new_mrr: '260.00',
      old_mrr: '200.00',
      created_date: '2026-01-15T09:00:00.000Z',
      date: '2026-01-20T00:00:00.000Z',
      subscription: null,
      is_manual: true,
      deleted: false,
      churn_reason: '',
      account_first_subscription_start_date: '2026-01-15T09:00:00.000Z',
      model: 'account_activity',
      schema: '2026-11-22-account_activity',
    });
    const patched = await api.patch(accountActivityPath(created.body.uuid), { new_mrr: '300.00' });
    expect([patched.status, patched.body.mrr_change]).toEqual([200, '100.00']);
    const [derived] = (await readAnalytics(platform(), api, `${ACCOUNT_ACTIVITIES}?is_manual=false`)).results;
    const refused = await api.put(accountActivityPath(derived.uuid), body);
    expect([refused.status, refused.body]).toEqual([400, { detail: 'Only manual account activities can be changed.' }]);
    expect((await api.delete(accountActivityPath(created.body.uuid))).status).toBe(204);
    expect((await readAnalytics(platform(), api, `${ACCOUNT_ACTIVITIES}?is_manual=true`)).count).toBe(0);
    const missing = await api.post(ACCOUNT_ACTIVITIES, { type: 'churn' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body).sort()).toEqual(
      [
        'account_code',
        'account_first_subscription_start_date',
        'account_uuid',
        'churn_reason',
        'company_name',
        'date',
        'new_mrr',
        'old_mrr',
        'subscription',
      ].sort(),
    );
  });
});

describe('total-mrr', () => {
  it('takes the subscription list’s filters, on both paths', async () => {
    const { api, plan, terms } = await subscribed();
    expect(await totalMrr(platform(), api, `?plan=${plan.uuid}`)).toEqual(['200.00', '200.00', '0.00', 1]);
    expect(await totalMrr(platform(), api, `?terms=${terms.uuid}&status=active`)).toEqual([
      '200.00',
      '200.00',
      '0.00',
      1,
    ]);
    expect(await totalMrr(platform(), api, '?status=not_renewing')).toEqual(['0.00', '0.00', '0.00', 0]);
    expect(await totalMrr(platform(), api, '?account=acme')).toEqual(['200.00', '200.00', '0.00', 1]);
    expect(await totalMrr(platform(), api, '?account=nobody')).toEqual(['0.00', '0.00', '0.00', 0]);
    const twin = await api.get('/api/v1/subscriptions/total_mrr/');
    expect([twin.status, twin.body]).toEqual([
      200,
      {
        total_mrr: '200.00',
        future_mrr: '200.00',
        pending_manual_renewal_mrr: '0.00',
        subscriptions_count: 1,
        model: 'total_mrr',
        schema: '2026-11-22-total_mrr',
      },
    ]);
    const bad = await api.get('/api/v1/subscriptions/total-mrr/?status=gone');
    expect([bad.status, bad.body]).toEqual([
      400,
      { status: ['Select a valid choice. gone is not one of the available choices.'] },
    ]);
    const month = await api.get('/api/v1/subscriptions/mrr-per-month/?month=13');
    expect([month.status, month.body]).toEqual([400, { year: [REQUIRED], month: ['Enter a valid month.'] }]);
  });
});

describe('tenancy', () => {
  it('another organization’s activities are 404 to read, change and delete', async () => {
    const { activity, terms, subscription } = await subscribed();
    const other = await newOrganization(platform());
    for (const response of [
      await other.api.get(activityPath(activity.uuid)),
      await other.api.delete(activityPath(activity.uuid)),
      await other.api.patch(activityPath(activity.uuid), { mrr: '1' }),
    ]) {
      expect([response.status, response.body]).toEqual([404, NOT_FOUND]);
    }
    const foreign = await other.api.post(ACTIVITIES, {
      subscription: subscription.uuid,
      date: '2026-01-20T00:00:00Z',
      quantity: 1,
      terms: terms.uuid,
      mrr: '10',
    });
    expect([foreign.status, foreign.body]).toEqual([
      400,
      { terms: [`Invalid pk "${terms.uuid}" - object does not exist.`] },
    ]);
  });
});
