/**
 * Tenancy of subscriptions: another organization's subscription is 404 on every endpoint (never
 * 403: existence must not leak) and never listed; another organization's account, terms or churn
 * reason named in a write is 400 on that field, as if it did not exist.
 */
import { describe, expect, it } from 'vitest';
import { expectStatus, NOT_FOUND, newOrganization, usePlatform } from './helpers.js';
import {
  createChurnReason,
  createSubscription,
  invalidPk,
  listUuids,
  noAccount,
  SUBSCRIPTIONS,
  subscribePath,
  subscriptionFixture,
  subscriptionInput,
  subscriptionPath,
} from './subscriptions-helpers.js';

const platform = usePlatform();

async function twoOrganizations() {
  const a = await newOrganization(platform());
  const b = await newOrganization(platform());
  const fixtureA = await subscriptionFixture(a.api);
  const fixtureB = await subscriptionFixture(b.api);
  const subscriptionOfA = await createSubscription(a.api, fixtureA);
  return { a, b, fixtureA, fixtureB, subscriptionOfA };
}

describe("another organization's subscription", () => {
  it('is 404 on GET, PUT, PATCH, cancel, reactivate and renew-now, and stays unchanged', async () => {
    const { a, b, subscriptionOfA } = await twoOrganizations();
    const path = subscriptionPath(subscriptionOfA.uuid);

    const answers = [
      await b.api.get(path),
      await b.api.put(path, { po_number: 'x' }),
      await b.api.patch(path, { po_number: 'x' }),
      await b.api.post(`${path}cancel/`, { cancellation_type: 'today' }),
      await b.api.post(`${path}reactivate/`),
      await b.api.post(`${path}renew-now/`),
      await b.api.post(`${path}renew_now/`),
    ];

    for (const answer of answers) {
      expectStatus(answer, 404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
    expect((await a.api.get(path)).body).toEqual(subscriptionOfA);
  });

  it('is never listed, whatever the filter', async () => {
    const { a, b, fixtureA, fixtureB, subscriptionOfA } = await twoOrganizations();
    const subscriptionOfB = await createSubscription(b.api, fixtureB);

    expect(await listUuids(b.api, '')).toEqual([subscriptionOfB.uuid]);
    expect(await listUuids(b.api, `account=${fixtureA.code}`)).toEqual([]);
    expect(await listUuids(b.api, `plan=${fixtureA.plan.uuid}`)).toEqual([]);
    expect(await listUuids(b.api, `terms=${fixtureA.terms.uuid}`)).toEqual([]);
    expect(await listUuids(a.api, '')).toEqual([subscriptionOfA.uuid]);
  });

  it("is not in another organization's account of the same code", async () => {
    const a = await newOrganization(platform());
    const b = await newOrganization(platform());
    const fixtureA = await subscriptionFixture(a.api);
    const fixtureB = await subscriptionFixture(b.api, { account: { code: fixtureA.code } });
    const subscriptionOfA = await createSubscription(a.api, fixtureA);
    const subscriptionOfB = await createSubscription(b.api, fixtureB);

    expect(await listUuids(a.api, `account=${fixtureA.code}`)).toEqual([subscriptionOfA.uuid]);
    expect(await listUuids(b.api, `account=${fixtureA.code}`)).toEqual([subscriptionOfB.uuid]);
  });
});

describe("another organization's objects named in a write", () => {
  it('account code: 400 on account', async () => {
    const { b, fixtureA, fixtureB } = await twoOrganizations();

    const response = await b.api.post(SUBSCRIPTIONS, subscriptionInput({ code: fixtureA.code, terms: fixtureB.terms }));

    expectStatus(response, 400);
    expect(response.body).toEqual({ account: [noAccount(fixtureA.code)] });
  });

  it('plan terms: 400 on terms, on create, on subscribe and on update', async () => {
    const { b, fixtureA, fixtureB } = await twoOrganizations();
    const subscriptionOfB = await createSubscription(b.api, fixtureB);
    const refusal = { terms: [invalidPk(fixtureA.terms.uuid)] };

    const create = await b.api.post(SUBSCRIPTIONS, subscriptionInput({ code: fixtureB.code, terms: fixtureA.terms }));
    const subscribe = await b.api.post(subscribePath(fixtureB.code), {
      terms: fixtureA.terms.uuid,
      quantity: 1,
      collection_method: 'invoice',
    });
    const update = await b.api.patch(subscriptionPath(subscriptionOfB.uuid), { terms: fixtureA.terms.uuid });

    for (const response of [create, subscribe, update]) {
      expectStatus(response, 400);
      expect(response.body).toEqual(refusal);
    }
  });

  it('churn reason: 400 on churn_reason', async () => {
    const { a, b, fixtureB } = await twoOrganizations();
    const reasonOfA = await createChurnReason(a.api);
    const subscriptionOfB = await createSubscription(b.api, fixtureB);

    const create = await b.api.post(SUBSCRIPTIONS, subscriptionInput(fixtureB, { churn_reason: reasonOfA.uuid }));
    const update = await b.api.patch(subscriptionPath(subscriptionOfB.uuid), { churn_reason: reasonOfA.uuid });

    for (const response of [create, update]) {
      expectStatus(response, 400);
      expect(response.body).toEqual({ churn_reason: [invalidPk(reasonOfA.uuid)] });
    }
  });

  it('account of subscribe/: 404 (the account is in the URL)', async () => {
    const { b, fixtureA, fixtureB } = await twoOrganizations();

    const response = await b.api.post(subscribePath(fixtureA.code), {
      terms: fixtureB.terms.uuid,
      quantity: 1,
      collection_method: 'invoice',
    });

    expectStatus(response, 404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});
