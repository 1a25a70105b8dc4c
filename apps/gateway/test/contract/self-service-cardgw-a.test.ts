/**
 * Adding a card on the self-service page through cardgw_a (Stripe's API, against the local fake
 * of its endpoints): the page offers it only once the organization has cardgw_a's credentials;
 * "Add a card" sends the customer to the Checkout Session, whose return address is the page, and
 * the signed checkout.session.completed callback registers the card the page then shows.
 */

import { startFakeStripe } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createAccount, createRecipient, expectStatus, gatewaysPath, newOrganization } from './helpers.js';
import { headline, SelfServiceClient, selfServiceLink, tableRows } from './self-service-helpers.js';

const WEBHOOK_SECRET = 'whsec_test_self_service_5e6f';
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let platform: TestPlatform;

beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  platform = await startTestPlatform({ cardgwAApiUrl: stripe.url });
});
afterAll(async () => {
  await platform?.stop();
  await stripe?.stop();
});

describe('self-service with cardgw_a', () => {
  it('adds a card through the Checkout Session once the organization has the credentials', async () => {
    const { api, organizationId } = await newOrganization(platform);
    const account = await createAccount(api, undefined, { company_name: 'Stripe Kunde ApS' });
    await createRecipient(api, account.uuid as string, { email: 'kunde@example.com' });
    expectStatus(
      await api.post(gatewaysPath(account.code as string), [
        { payment_gateway: 'cardgw_a', payment_gateway_account_id: 'cus_123' },
      ]),
      200,
    );
    const browser = new SelfServiceClient(platform.baseUrl);
    await browser.signIn(await selfServiceLink(api, 'kunde@example.com'));
    const mine = `/self-service/accounts/${account.uuid}/`;

    // No credentials yet: no card can be taken through cardgw_a.
    expect((await browser.get(mine)).text).toContain('<p>Cards cannot be added here; please contact us.</p>');
    const refused = await browser.post(`${mine}cards/add/`);
    expectStatus(refused, 403);
    expect(headline(refused.text).message).toBe('Cards cannot be added here; please contact us.');

    await platform.admin(
      'set-gateway-credentials',
      '--org',
      organizationId,
      '--gateway',
      'cardgw_a',
      '--credential',
      'secret_key=sk_test_51Hx9KeyOnlyForTheFake',
      '--credential',
      `webhook_secret=${WEBHOOK_SECRET}`,
    );
    expect((await browser.get(mine)).text).toContain(
      `<form method="post" action="${mine}cards/add/"><button type="submit">Add a card</button></form>`,
    );
    const add = await browser.post(`${mine}cards/add/`);
    expectStatus(add, 303);
    const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(add.headers.get('location') ?? '')?.[1];
    expect(add.headers.get('location')).toBe(`${stripe.url}/c/pay/${sessionId}`);

    const { payload, signature } = stripe.completeCheckout(sessionId!, 'pm_card_visa');
    const session = JSON.parse(payload).data.object;
    expect({ success_url: session.success_url, cancel_url: session.cancel_url }).toEqual({
      success_url: `${platform.baseUrl}${mine}?notice=card_added`,
      cancel_url: `${platform.baseUrl}${mine}?notice=card_added`,
    });
    const callback = await fetch(`${platform.baseUrl}/payments/callbacks/cardgw_a/${organizationId}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(callback.status).toBe(200);

    const page = await browser.get(`${mine}?notice=card_added`);
    expect(page.text).toContain('<p class="notice">Your card is registered.</p>');
    expect(tableRows(page.text, 'cards')).toEqual([['visa **** **** **** 4242', '08/2031', 'Active', 'Disable']]);
  });
});
