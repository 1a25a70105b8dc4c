/**
 * cardgw_a (Stripe's API through the official SDK) against a local fake of the Stripe endpoints
 * the adapter calls: credentials set with the admin command line, a card registered by payment
 * method id, one registered through the link flow and the signed checkout.session.completed
 * callback (exactly once), and a card invoice charged with the right amount, currency and
 * idempotency key (the attempt's id).
 */

import { type FakeCharge, startFakeStripe } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { accountPath, createAccount, expectStatus, newOrganization, UUID_PATTERN } from './helpers.js';
import { INVOICES, invoiceFixture, invoicePath, subscribe } from './invoices-helpers.js';

const CARDS = '/api/v1/paymentcards/';
const WEBHOOK_SECRET = 'whsec_test_4f1c2d9e8a7b6c5d';
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

async function organizationWithCardgwA(time?: string) {
  const organization = await newOrganization(platform, time ? { test_clock_time: time } : {});
  const printed = await platform.admin(
    'set-gateway-credentials',
    '--org',
    organization.organizationId,
    '--gateway',
    'cardgw_a',
    '--credential',
    'secret_key=sk_test_51Hx9KeyOnlyForTheFake',
    '--credential',
    `webhook_secret=${WEBHOOK_SECRET}`,
  );
  // Never printed back.
  expect(JSON.stringify(printed)).not.toContain('sk_test');
  expect(printed).toEqual({
    organization_id: organization.organizationId,
    gateway: 'cardgw_a',
    configured: true,
    updated_at: expect.any(String),
  });
  // list-orgs names the organization's gateways, never their secrets.
  const listed = (await platform.admin('list-orgs')) as Array<{ id: string; payment_gateways: string[] }>;
  expect(JSON.stringify(listed)).not.toContain('sk_test');
  expect(JSON.stringify(listed)).not.toContain(WEBHOOK_SECRET);
  expect(listed.find((entry) => entry.id === organization.organizationId)?.payment_gateways).toEqual(['cardgw_a']);
  return organization;
}

describe('cardgw_a', () => {
  it('registers a card by its payment method id, with what the gateway says about it', async () => {
    const { api } = await organizationWithCardgwA();
    const account = await createAccount(api);
    const created = await api.post(CARDS, { account: account.uuid, token: 'pm_card_visa', gateway: 'cardgw_a' });
    expectStatus(created, 201);
    expect(created.body).toEqual({
      uuid: expect.stringMatching(UUID_PATTERN),
      active: true,
      brand: 'visa',
      card_number: '**** **** **** 4242',
      month: 8,
      year: 2031,
      name: 'Jenny Rosen',
      payment_gateway: 'cardgw_a',
      payment_gateway_id: 'pm_card_visa',
      account: account.uuid,
      model: 'paymentcard',
      schema: expect.any(String),
    });
    const unknown = await api.post(CARDS, { account: account.uuid, token: 'pm_nope', gateway: 'cardgw_a' });
    expectStatus(unknown, 400);
    expect(unknown.body).toEqual({ token: ['The payment gateway does not know the payment method "pm_nope".'] });
    // cardgw_a_new has no credentials in this organization.
    const other = await api.post(CARDS, { account: account.uuid, token: 'pm_card_visa', gateway: 'cardgw_a_new' });
    expectStatus(other, 400);
  });

  it('registers the card of a completed checkout through the signed callback, exactly once', async () => {
    const { api, organizationId } = await organizationWithCardgwA();
    const account = await createAccount(api);
    const redirect = 'https://shop.example/cards/done';
    const link = await api.get(
      `${accountPath(account.code as string)}card_registration_link/cardgw_a/?redirect_url=${encodeURIComponent(redirect)}&currency=EUR`,
    );
    expectStatus(link, 200);
    const sessionId = /\/c\/pay\/(cs_test_[0-9a-f]+)$/.exec(link.body.url as string)?.[1];
    expect(link.body.url).toBe(`${stripe.url}/c/pay/${sessionId}`);
    const { payload, signature } = stripe.completeCheckout(sessionId!, 'pm_card_mastercard');

    const callback = `${platform.baseUrl}/payments/callbacks/cardgw_a/${organizationId}/`;
    const forged = await fetch(callback, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(payload, 'whsec_wrong') },
      body: payload,
    });
    expect(forged.status).toBe(400);
    expect((await api.get(`${CARDS}?account=${account.uuid}`)).body.count).toBe(0);

    const send = () =>
      fetch(callback, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const answers = await Promise.all([send(), send()]);
    const later = await send();
    expect([...answers, later].map((response) => response.status)).toEqual([200, 200, 200]);
    const results = await Promise.all(
      [...answers, later].map(async (response) => ((await response.json()) as { result: string }).result),
    );
    expect(results.sort()).toEqual(['duplicate', 'duplicate', 'registered']);

    const cards = await api.get(`${CARDS}?account=${account.uuid}`);
    expect(
      cards.body.results.map((card: { payment_gateway: string; payment_gateway_id: string; brand: string }) => [
        card.payment_gateway,
        card.payment_gateway_id,
        card.brand,
      ]),
    ).toEqual([['cardgw_a', 'pm_card_mastercard', 'mastercard']]);
    expect(stripe.requests.filter((request) => request.path === '/v1/checkout/sessions')).toHaveLength(1);
  });

  it('charges a card invoice once, with the amount, currency and the attempt id as idempotency key', async () => {
    const organization = await organizationWithCardgwA('2026-01-15T09:00:00Z');
    const { api } = organization;
    const fixture = await invoiceFixture(api);
    expectStatus(
      await api.post(CARDS, { account: fixture.account.uuid, token: 'pm_card_visa', gateway: 'cardgw_a' }),
      201,
    );
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    expectStatus(await api.post('/api/v1/test-clock/advance/', { to: '2026-01-15T09:00:00Z' }), 200);

    const list = await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`);
    const invoice = (await api.get(invoicePath(list.body.results[0].uuid))).body;
    expect([invoice.status, invoice.balance]).toEqual(['paid', '0.00']);
    const events = await platform.paymentEvents(organization.organizationId);
    const succeeded = events.filter((event) => event.event_type === 'payment.succeeded');
    expect(succeeded).toHaveLength(1);
    const attempt = succeeded[0]!.attempt!.attempt!;
    const charges = stripe.charges.filter((charge) => charge.idempotencyKey === attempt.uuid);
    expect(charges).toEqual([
      {
        id: attempt.gateway_reference,
        idempotencyKey: attempt.uuid,
        amount: 12500,
        currency: 'dkk',
        paymentMethod: 'pm_card_visa',
        customer: null,
        offSession: true,
        status: 'succeeded',
      } satisfies FakeCharge,
    ]);
  });
});
