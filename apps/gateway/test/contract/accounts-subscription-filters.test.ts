/**
 * The account list's subscription filters, the delete rule and the embedded subscription_set over
 * HTTP, fed the way production feeds them: the subscriptions service's `subscription.changed`
 * events, handed to the accounts service's read model right after each commit (and delivered again
 * by JetStream, where the inbox makes them no-ops). Read-your-writes: nothing here waits between a
 * subscription write and the account read that must show it.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountPath,
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  listCodes,
  newOrganization,
  usePlatform,
} from './helpers.js';
import { createSubscription, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

describe('account list filters fed by subscription events', () => {
  it('subscription_status, subscription_collection_method and subscription_set_to_expire', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid);
    await createAccount(api, 'active-invoice');
    await createAccount(api, 'not-renewing-card');
    await createAccount(api, 'no-subscriptions');
    const active = await createSubscription(api, { code: 'active-invoice', terms }, { collection_method: 'invoice' });
    const card = await createSubscription(
      api,
      { code: 'not-renewing-card', terms },
      { collection_method: 'payment_card' },
    );
    expectStatus(await api.post(`${subscriptionPath(card.uuid)}cancel/`, { cancellation_type: 'at_renewal' }), 200);

    const response = await api.get(`${ACCOUNTS}?subscription_status=active`);
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ count: 1, next: null, previous: null });
    const [only] = response.body.results as { code: string; subscription_set: unknown[] }[];
    expect(only?.code).toBe('active-invoice');
    expect(only?.subscription_set).toEqual([(await api.get(subscriptionPath(active.uuid))).body]);

    expect(await listCodes(api, 'subscription_status=not_renewing')).toEqual(['not-renewing-card']);
    expect(await listCodes(api, 'subscription_status=expired')).toEqual([]);
    expect(await listCodes(api, 'subscription_collection_method=payment_card')).toEqual(['not-renewing-card']);
    expect(await listCodes(api, 'subscription_collection_method=direct_debit')).toEqual([]);
    expect(await listCodes(api, 'subscription_set_to_expire=true')).toEqual(['not-renewing-card']);
    expect(await listCodes(api, 'subscription_set_to_expire=false&ordering=code')).toEqual([
      'active-invoice',
      'no-subscriptions',
    ]);
    const cancelled = await api.get(accountPath('not-renewing-card'));
    expect(cancelled.body.subscription_set).toEqual([(await api.get(subscriptionPath(card.uuid))).body]);
    expect((cancelled.body.subscription_set as { status: string }[])[0]?.status).toBe('not_renewing');
  });

  it('DELETE answers 400 while the account has a non-expired subscription, 204 once it expired', async () => {
    const { api } = await newOrganization(platform());
    const plan = await createPlan(api);
    // Charged backwards and cancelled with a full refund: nothing is ever invoiced, which would
    // refuse the delete too (an account with invoices is never deleted).
    const terms = await createPlanTerms(api, plan.uuid, { backwards_charging: true });
    await createAccount(api, 'subscribed');
    const subscription = await createSubscription(api, { code: 'subscribed', terms });

    const refused = await api.delete(accountPath('subscribed'));
    expectStatus(refused, 400);
    expect(refused.body).toEqual({ detail: 'An account with non-expired subscriptions cannot be deleted.' });
    expectStatus(await api.get(accountPath('subscribed')), 200);

    expectStatus(
      await api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'full_refund' }),
      200,
    );
    expect(await listCodes(api, 'subscription_status=expired')).toEqual(['subscribed']);
    const deleted = await api.delete(accountPath('subscribed'));
    expect(deleted.status).toBe(204);
    expectStatus(await api.get(accountPath('subscribed')), 404);
  });
});
