/**
 * Churn account activities name their churn reason (gaps.md §8: the churn reason's name, else the
 * custom churn reason, else ''): analytics keeps the names from accounts' churn_reason.* events,
 * and a renamed reason renames the churns already recorded. Through HTTP on a test clock.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { ACCOUNT_ACTIVITIES, accountActivitySummary, readAnalytics } from './analytics-helpers.js';
import { createAccount, createPlan, createPlanTerms, expectStatus, type Json, usePlatform } from './helpers.js';
import { clockOrganization, SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();
const REASONS = '/api/v1/churn-reasons/';

async function subscribe(api: ApiClient, account: string, terms: Json, reason: Json) {
  const created = await api.post(SUBSCRIPTIONS, {
    account,
    terms: terms.uuid,
    quantity: 1,
    collection_method: 'invoice',
  });
  expectStatus(created, 201);
  expectStatus(await api.patch(subscriptionPath(created.body.uuid), reason), 200);
  return created.body as Json & { uuid: string };
}

describe('churn reasons on churn account activities', () => {
  it("show the reason's name, else the custom reason, else '', and follow a rename", async () => {
    const org = await clockOrganization(platform(), '2026-01-15T09:00:00Z');
    const { api } = org;
    const reason = await api.post(REASONS, { name: 'Too expensive' });
    expectStatus(reason, 201);
    const plan = await createPlan(api, 'pro', { name: 'Pro' });
    const terms = await createPlanTerms(api, plan.uuid, { code: 'pro-monthly', price: '100', currency: 'DKK' });
    await createAccount(api, 'named', { company_name: 'Named ApS' });
    await createAccount(api, 'custom', { company_name: 'Custom ApS' });
    await createAccount(api, 'silent', { company_name: 'Silent ApS' });
    const named = await subscribe(api, 'named', terms, {
      churn_reason: reason.body.uuid,
      custom_churn_reason: 'Moved to a rival',
    });
    const custom = await subscribe(api, 'custom', terms, { custom_churn_reason: 'Moved to a rival' });
    const silent = await subscribe(api, 'silent', terms, {});

    await org.advance('2026-01-20T09:00:00Z');
    for (const subscription of [named, custom, silent]) {
      const cancelled = await api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'today' });
      expectStatus(cancelled, 200);
    }
    const churns = async (account: string) => accountActivitySummary(platform(), api, `&account=${account}&type=churn`);
    expect(await churns('named')).toEqual([
      ['churn', '2026-01-20T09:00:00.000Z', '100.00', '0.00', '-100.00', 'Too expensive'],
    ]);
    expect(await churns('custom')).toEqual([
      ['churn', '2026-01-20T09:00:00.000Z', '100.00', '0.00', '-100.00', 'Moved to a rival'],
    ]);
    expect(await churns('silent')).toEqual([['churn', '2026-01-20T09:00:00.000Z', '100.00', '0.00', '-100.00', '']]);

    // The list's churn_reason filter takes the name shown.
    const filtered = await readAnalytics(platform(), api, `${ACCOUNT_ACTIVITIES}?churn_reason=Too%20expensive`);
    expect(filtered.results.map((row: Json) => row.account_code)).toEqual(['named']);

    // A renamed (then deleted) reason: the recorded churn shows the new name, which deletion keeps.
    expectStatus(await api.patch(`${REASONS}${reason.body.uuid}/`, { name: 'Price too high' }), 200);
    expectStatus(await api.delete(`${REASONS}${reason.body.uuid}/`), 204);
    expect(await churns('named')).toEqual([
      ['churn', '2026-01-20T09:00:00.000Z', '100.00', '0.00', '-100.00', 'Price too high'],
    ]);
  });
});
