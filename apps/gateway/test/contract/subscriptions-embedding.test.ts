/**
 * What a subscription embeds from other services, and the account's subscription_set: the
 * minimal account (api-spec), the plan terms as the plans list shows them, the plan, the churn
 * reason, effective_payment_terms (subscription, else account, else organization).
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, accountPath, expectStatus, newOrganization, PLANS, usePlatform } from './helpers.js';
import {
  CHURN_REASONS,
  createChurnReason,
  createSubscription,
  embeddedAccount,
  embeddedChurnReason,
  embeddedPlan,
  subscriptionFixture,
  subscriptionPath,
} from './subscriptions-helpers.js';

const platform = usePlatform();
const tick = () => platform().clock.advanceMs(1_000);

describe('embedded objects', () => {
  it('the minimal account of a company and of a person, with account_uuid and account_code', async () => {
    const { api } = await newOrganization(platform());
    const company = await subscriptionFixture(api, { account: { company_name: 'Acme ApS' } });
    const person = await subscriptionFixture(api, { account: { first_name: 'Jane', last_name: 'Doe' } });
    const typed = await subscriptionFixture(api, { account: { company_name: 'Solo', type: 'person' } });

    for (const fixture of [company, person, typed]) {
      const subscription = await createSubscription(api, fixture);
      expect(subscription.account).toEqual(embeddedAccount(fixture.account));
      expect(subscription.account_uuid).toBe(fixture.account.uuid);
      expect(subscription.account_code).toBe(fixture.code);
    }
    expect(embeddedAccount(person.account)).toMatchObject({ display_name: 'Jane Doe', type: 'person' });
    expect(embeddedAccount(typed.account)).toMatchObject({ display_name: 'Solo', type: 'person' });
  });

  it('follows a change of the account’s code and name', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api, { account: { company_name: 'Old Name' } });
    const subscription = await createSubscription(api, fixture);

    const renamed = await api.patch(accountPath(fixture.code), { code: 'renamed-code', company_name: 'New Name' });
    expectStatus(renamed, 200);
    const read = await api.get(subscriptionPath(subscription.uuid));

    expect(read.body.account).toEqual(embeddedAccount(renamed.body));
    expect(read.body.account_code).toBe('renamed-code');
  });

  it('terms exactly as the plans list shows them, and the plan without its terms', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api, {
      plan: { name: 'Team', vat_type: 'physical', collect_vat: false },
      terms: { price: '9.995', interval_type: 'year', interval_count: 2, revenue_group: 'saas' },
    });

    const subscription = await createSubscription(api, fixture);
    const listed = (await api.get(PLANS)).body.results.find(
      (plan: { uuid: string }) => plan.uuid === fixture.plan.uuid,
    );

    expect(subscription.terms).toEqual(listed.planterms_set[0]);
    expect(subscription.terms).toEqual(fixture.terms);
    expect(subscription.plan).toEqual(embeddedPlan(fixture.plan));
    expect(Object.keys(subscription.plan)).toEqual([
      'uuid',
      'name',
      'code',
      'collect_vat',
      'vat_type',
      'model',
      'schema',
    ]);
  });

  it('the churn reason, also after it was deactivated or deleted', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const reason = await createChurnReason(api, 'Switched provider');
    const subscription = await createSubscription(api, fixture, { churn_reason: reason.uuid });
    const path = subscriptionPath(subscription.uuid);

    expect(subscription.churn_reason).toEqual(embeddedChurnReason(reason));
    expectStatus(await api.patch(`${CHURN_REASONS}${reason.uuid}/`, { is_active: false }), 200);
    expect((await api.get(path)).body.churn_reason).toEqual(embeddedChurnReason({ ...reason, is_active: false }));
    expectStatus(await api.delete(`${CHURN_REASONS}${reason.uuid}/`), 204);
    expect((await api.get(path)).body.churn_reason).toEqual(embeddedChurnReason({ ...reason, is_active: false }));
  });

  it('effective_payment_terms: the subscription’s, else the account’s default, else the organization’s', async () => {
    const { api } = await newOrganization(platform(), { default_payment_terms: 21 });
    const withDefault = await subscriptionFixture(api, { account: { default_payment_terms: 8 } });
    const withoutDefault = await subscriptionFixture(api);

    const own = await createSubscription(api, withDefault, { payment_terms: 0 });
    await tick();
    const fromAccount = await createSubscription(api, withDefault);
    await tick();
    const fromOrganization = await createSubscription(api, withoutDefault);

    expect(
      [own, fromAccount, fromOrganization].map((item) => [item.payment_terms, item.effective_payment_terms]),
    ).toEqual([
      [0, '0'],
      [null, '8'],
      [null, '21'],
    ]);
    const listed = (await api.get('/api/v1/subscriptions/')).body.results;
    expect(listed.map((item: { effective_payment_terms: string }) => item.effective_payment_terms)).toEqual([
      '0',
      '8',
      '21',
    ]);
  });
});

describe('subscription_set of the account', () => {
  it('holds the account’s subscriptions, oldest first, each the whole subscription object', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const other = await subscriptionFixture(api);
    const first = await createSubscription(api, fixture);
    await tick();
    const second = await createSubscription(api, fixture, { quantity: 2 });
    const ofOther = await createSubscription(api, other);

    const detail = await api.get(accountPath(fixture.code));
    const list = await api.get(`${ACCOUNTS}?ordering=created_date`);

    expectStatus(detail, 200);
    expect(detail.body.subscription_set).toEqual([first, second]);
    const byCode = new Map(list.body.results.map((account: { code: string }) => [account.code, account]));
    expect((byCode.get(fixture.code) as { subscription_set: unknown }).subscription_set).toEqual([first, second]);
    expect((byCode.get(other.code) as { subscription_set: unknown }).subscription_set).toEqual([ofOther]);
  });

  it('is empty for an account without subscriptions, and on the account returned by an update', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const bare = await subscriptionFixture(api);
    const subscription = await createSubscription(api, fixture);

    expect((await api.get(accountPath(bare.code))).body.subscription_set).toEqual([]);
    const updated = await api.patch(accountPath(fixture.code), { invoice_note: 'note' });
    expectStatus(updated, 200);
    expect(updated.body.subscription_set.map((item: { uuid: string }) => item.uuid)).toEqual([subscription.uuid]);
  });

  it('is left out, unasked, when the Fields header does not name it', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await subscriptionFixture(api);
    const subscription = await createSubscription(api, fixture);

    const without = await api.get(accountPath(fixture.code), { headers: { Fields: 'code' } });
    const withSet = await api.get(accountPath(fixture.code), { headers: { Fields: 'code,subscription_set' } });

    expect(without.body).toEqual({ code: fixture.code, model: 'account', schema: expect.any(String) });
    expect(withSet.body.subscription_set.map((item: { uuid: string }) => item.uuid)).toEqual([subscription.uuid]);
  });
});
