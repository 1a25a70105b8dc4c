/**
 * The crash test (issue 11): the payments process is killed between the gateway's answer to a
 * charge and the commit of its outcome (PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL=1, docs/architecture.md
 * "Charging"), then started again. The attempt it had committed before the call is retried with the
 * same idempotency key: the gateway (a local fake of Stripe's API) charged once, and the invoice
 * ends paid with the outcome the gateway gave the first time.
 */
import { startFakeStripe, waitFor } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { expectStatus, newOrganization } from './helpers.js';
import { INVOICES, invoiceFixture, invoicePath, subscribe } from './invoices-helpers.js';

const WEBHOOK_SECRET = 'whsec_crash_test';
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let platform: TestPlatform;

beforeAll(async () => {
  stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  platform = await startTestPlatform({ cardgwAApiUrl: stripe.url, paymentsProcess: true });
}, 180_000);
afterAll(async () => {
  await platform?.stop();
  await stripe?.stop();
});

it('charges once when the payments process dies between the gateway call and the commit', async () => {
  const payments = platform.paymentsProcess!;
  const { api, organizationId } = await newOrganization(platform);
  await platform.admin(
    'set-gateway-credentials',
    '--org',
    organizationId,
    '--gateway',
    'cardgw_a',
    '--credential',
    'secret_key=sk_test_crash',
    '--credential',
    `webhook_secret=${WEBHOOK_SECRET}`,
  );
  const fixture = await invoiceFixture(api);
  const card = await api.post('/api/v1/paymentcards/', {
    account: fixture.account.uuid,
    token: 'pm_card_visa',
    gateway: 'cardgw_a',
  });
  expectStatus(card, 201);

  // From now on the process exits right after a gateway answers a charge.
  await payments.stop();
  await payments.restart({ PAYMENTS_TEST_CRASH_AFTER_GATEWAY_CALL: '1' });
  const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
  expect(await payments.exited()).toBe(86);

  const [listed] = (await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`)).body.results;
  expect((await api.get(invoicePath(listed.uuid))).body.status).toBe('open');
  expect(stripe.charges).toHaveLength(1);
  const key = stripe.charges[0]!.idempotencyKey;

  await payments.restart();
  const paid = await waitFor(
    async () => {
      const invoice = (await api.get(invoicePath(listed.uuid))).body;
      return invoice.status === 'paid' ? invoice : undefined;
    },
    { timeoutMs: 60_000, description: 'the invoice to be paid after the restart' },
  );
  expect(paid.balance).toBe('0.00');
  // The retry asked again with the same key and got the first answer: one charge at the gateway.
  expect(
    stripe.charges.map((charge) => [charge.idempotencyKey, charge.amount, charge.currency, charge.status]),
  ).toEqual([[key, 12500, 'dkk', 'succeeded']]);
  const calls = stripe.requests.filter((request) => request.path === '/v1/payment_intents');
  expect(calls.map((call) => call.idempotencyKey)).toEqual([key, key]);
}, 240_000);
