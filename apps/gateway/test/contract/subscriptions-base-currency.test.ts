/**
 * current_mrr and committed_mrr in the organization's base currency (api-spec Subscription,
 * gaps.md §8 exchange rates): a EUR subscription of a DKK organization, converted at the rate of
 * its latest start or renewal (held for the period), rounded half-up to the øre.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { createAccount, createPlan, createPlanTerms, expectStatus, type Json, usePlatform } from './helpers.js';
import { clockOrganization, SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();

const mrrOf = async (api: ApiClient, uuid: string) => {
  const response = await api.get(subscriptionPath(uuid));
  expectStatus(response, 200);
  const body = response.body as Json;
  return [body.current_mrr, body.committed_mrr, body.final_price];
};

describe('MRR on subscriptions in the base currency', () => {
  it('converts a EUR subscription in a DKK organization at the rate held since its latest renewal', async () => {
    const org = await clockOrganization(platform(), '2026-01-15T09:00:00Z');
    const { api } = org;
    const rate = (currency: string, value: string, from: string) =>
      platform().admin(
        'set-exchange-rate',
        '--org',
        org.organizationId,
        '--currency',
        currency,
        '--rate',
        value,
        '--from',
        from,
      );
    await rate('EUR', '7.45', '2026-01-01');
    // The rates reach subscriptions with accounts' organization.updated.
    await platform().subscriptionsKnowOrganizations();

    const account = await createAccount(api, 'euro', { company_name: 'Euro GmbH', legal_country: 'DE' });
    const plan = await createPlan(api, 'eu', { name: 'EU' });
    const euro = await createPlanTerms(api, plan.uuid, { code: 'eu-monthly', price: '30.10', currency: 'EUR' });
    const dollar = await createPlanTerms(api, plan.uuid, { code: 'us-monthly', price: '20', currency: 'USD' });
    const krone = await createPlanTerms(api, plan.uuid, { code: 'dk-monthly', price: '100', currency: 'DKK' });
    const subscribe = async (terms: Json, quantity = 1) => {
      const response = await api.post(SUBSCRIPTIONS, {
        account: account.code,
        terms: terms.uuid,
        quantity,
        collection_method: 'invoice',
      });
      expectStatus(response, 201);
      return response.body as Json & { uuid: string };
    };

    // 30.10 EUR × 7.45 = 224.245 DKK: half-up to 224.25 (half-even would say 224.24).
    const created = await subscribe(euro);
    const others: string[] = [];
    expect([created.current_mrr, created.committed_mrr, created.final_price]).toEqual(['224.25', '224.25', '30.10']);
    expect(await mrrOf(api, created.uuid)).toEqual(['224.25', '224.25', '30.10']);
    // The base currency itself is taken at 1; a currency without a rate counts 0, as total-mrr counts it.
    for (const [terms, quantity, figures] of [
      [krone, 2, ['200.00', '200.00', '200.00']],
      [dollar, 1, ['0.00', '0.00', '20.00']],
    ] as const) {
      const { uuid } = await subscribe(terms, quantity);
      others.push(uuid);
      expect(await mrrOf(api, uuid)).toEqual(figures);
    }

    // Three from the next renewal: committed_mrr at the rate held now, 90.30 × 7.45 = 672.735.
    const change = await api.patch(subscriptionPath(created.uuid), { quantity: 3, change_type: 'at_renewal' });
    expectStatus(change, 200);
    expect(await mrrOf(api, created.uuid)).toEqual(['224.25', '672.74', '30.10']);

    // From February 7.46: the period started on 15 January keeps 7.45 until its renewal on 15 February.
    await rate('EUR', '7.46', '2026-02-01');
    await platform().subscriptionsKnowOrganizations();
    await org.advance('2026-02-10T09:00:00Z');
    expect(await mrrOf(api, created.uuid)).toEqual(['224.25', '672.74', '30.10']);
    // Renewed on 15 February at 7.46, with the waiting change: 90.30 EUR × 7.46 = 673.638.
    await org.advance('2026-02-15T10:00:00Z');
    expect(await mrrOf(api, created.uuid)).toEqual(['673.64', '673.64', '90.30']);

    // The list shows the same figures.
    const list = await api.get(SUBSCRIPTIONS);
    expectStatus(list, 200);
    const listed = new Map(
      ((list.body as Json).results as Json[]).map((s) => [s.uuid, [s.current_mrr, s.committed_mrr]]),
    );
    expect([created.uuid, ...others].map((uuid) => listed.get(uuid))).toEqual([
      ['673.64', '673.64'],
      ['200.00', '200.00'],
      ['0.00', '0.00'],
    ]);
  });
});
