/**
 * Webhook deliveries over time (gaps.md §12): the retry schedule (1 min, 5 min, 30 min, 2 h, 12 h,
 * 24 h, then failed) on a test clock, each attempt made before the advance answers, with the same
 * webhook-id throughout; resend; renew_subscription_soon 7 days before each renewal; a receiver
 * that hangs holds up neither billing nor other endpoints, and times out; and the data of new_invoice, paid_invoice, cancel_subscription and
 * plan_terms.* is the object as its GET returns it.
 */
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  accountPath,
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  newOrganization,
  planTermsPath,
  SCHEMA_PATTERN,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { actionPath, invoicePath, subscribe, waitForInvoices } from './invoices-helpers.js';
import { subscriptionPath } from './subscriptions-helpers.js';
import { createWebhook, deliveriesOf, deliveriesPath } from './webhooks-helpers.js';

// A short receiver timeout, so that the hanging receiver's attempt ends within the test; long enough
// that what must happen while attempts hang (another organization's delivery) does so on a loaded
// machine too (at 1.5 s a full CI run once took 1.9 s to create an account and deliver it).
const ATTEMPT_TIMEOUT_MS = 4_000;
const platform = usePlatform({ webhooks: { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS } });

const START = '2026-03-01T10:00:00.000Z';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function advance(api: ApiClient, to: string): Promise<void> {
  expectStatus(await api.post('/api/v1/test-clock/advance/', { to }), 200);
}

const attempt = (at: string, responseStatus: number | null, error: string) => ({
  attempt_date: at,
  response_status: responseStatus,
  error,
  duration_ms: expect.any(Number),
  model: 'webhook_attempt',
  schema: expect.stringMatching(SCHEMA_PATTERN),
});

/** Waits until `path` has received `count` requests and returns them. */
const receivedAt = (path: string, count: number) =>
  waitFor(() => (receiver.at(path).length >= count ? receiver.at(path) : undefined), {
    timeoutMs: 15_000,
    description: `${count} requests to ${path}`,
  });

/** The bodies of the requests to `path` with that event name. */
const eventsAt = (path: string, event: string) =>
  receiver
    .at(path)
    .map((request) => JSON.parse(request.body))
    .filter((body) => body.event === event);

describe('retries on the organization clock', () => {
  it('retries after 1 min, 5 min, 30 min, 2 h, 12 h and 24 h, then fails; resend delivers again', async () => {
    const { api } = await newOrganization(platform(), { test_clock_time: START, time_zone: 'UTC' });
    const path = `/retry-${uniqueCode()}`;
    let failing = true;
    receiver.answer((request) => (request.path === path && failing ? 500 : 200));
    const webhook = await createWebhook(api, { endpoint: receiver.url(path), events: ['account.created'] });

    await createAccount(api);
    await receivedAt(path, 1);
    const logged = await waitFor(
      async () => {
        const [delivery] = await deliveriesOf(api, webhook.uuid);
        return (delivery?.attempts as Json[] | undefined)?.length === 1 ? delivery : undefined;
      },
      { description: 'the first attempt logged' },
    );
    expect(logged).toMatchObject({
      status: 'pending',
      created_date: START,
      next_attempt_date: '2026-03-01T10:01:00.000Z',
      attempts: [attempt(START, 500, 'HTTP 500')],
    });

    // Not due yet: nothing happens.
    await advance(api, '2026-03-01T10:00:59.000Z');
    expect(receiver.at(path)).toHaveLength(1);

    const schedule: Array<[at: string, next: string | null]> = [
      ['2026-03-01T10:01:00.000Z', '2026-03-01T10:06:00.000Z'],
      ['2026-03-01T10:06:00.000Z', '2026-03-01T10:36:00.000Z'],
      ['2026-03-01T10:36:00.000Z', '2026-03-01T12:36:00.000Z'],
      ['2026-03-01T12:36:00.000Z', '2026-03-02T00:36:00.000Z'],
      ['2026-03-02T00:36:00.000Z', '2026-03-03T00:36:00.000Z'],
      ['2026-03-03T00:36:00.000Z', null],
    ];
    const attempts = [attempt(START, 500, 'HTTP 500')];
    for (const [at, next] of schedule) {
      await advance(api, at);
      attempts.push(attempt(at, 500, 'HTTP 500'));
      // The advance answered only after the attempt was made and logged.
      const [delivery] = await deliveriesOf(api, webhook.uuid);
      expect(delivery).toMatchObject({
        status: next === null ? 'failed' : 'pending',
        next_attempt_date: next,
        attempts,
      });
    }
    await advance(api, '2026-03-10T00:00:00.000Z');
    expect(receiver.at(path)).toHaveLength(7);
    const ids = new Set(receiver.at(path).map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);

    failing = false;
    const [failed] = await deliveriesOf(api, webhook.uuid);
    const resent = await api.post(`${deliveriesPath(webhook.uuid)}${failed!.uuid}/resend/`, {});
    expectStatus(resent, 200);
    expect(resent.body).toEqual({ ...failed, status: 'pending', next_attempt_date: '2026-03-10T00:00:00.000Z' });
    const [resentRequest] = (await receivedAt(path, 8)).slice(7);
    expect(resentRequest!.headers['webhook-id']).toBe([...ids][0]);
    expect(resentRequest!.body).toBe(receiver.at(path)[0]!.body);
    const succeeded = await waitFor(
      async () => {
        const [delivery] = await deliveriesOf(api, webhook.uuid);
        return delivery?.status === 'succeeded' ? delivery : undefined;
      },
      { description: 'the resent delivery acknowledged' },
    );
    expect(succeeded).toMatchObject({
      next_attempt_date: null,
      attempts: [...attempts, attempt('2026-03-10T00:00:00.000Z', 200, '')],
    });

    const unknown = await api.post(`${deliveriesPath(webhook.uuid)}${webhook.uuid}/resend/`, {});
    expect(unknown.status).toBe(404);
  });
});

describe('a receiver that hangs', () => {
  it('delays neither the API nor another endpoint, and its attempt times out into a retry', async () => {
    const { api } = await newOrganization(platform());
    const hanging = `/hang-${uniqueCode()}`;
    const fast = `/fast-${uniqueCode()}`;
    receiver.answer((request) => (request.path === hanging ? 'hang' : 200));
    const slow = await createWebhook(api, { endpoint: receiver.url(hanging), events: ['account.created'] });
    await createWebhook(api, { endpoint: receiver.url(fast), events: ['account.created'] });

    for (let index = 0; index < 3; index++) await createAccount(api);

    await receivedAt(fast, 3);
    // The hanging endpoint's first claim holds it: the deliveries due when it was made (one, or
    // more when accounts handled the events in one batch) are each sent once, the others wait.
    const sent = (await receivedAt(hanging, 1)).map((request) => request.headers['webhook-id']);
    expect(new Set(sent).size).toBe(sent.length);

    const now = platform().clock.now().toISOString();
    const timedOut = await waitFor(
      async () => {
        const deliveries = await deliveriesOf(api, slow.uuid);
        return deliveries.find((delivery) => (delivery.attempts as Json[]).length > 0);
      },
      { timeoutMs: 15_000, description: 'the hanging attempt timed out' },
    );
    expect(timedOut).toMatchObject({
      status: 'pending',
      next_attempt_date: new Date(Date.parse(now) + 60_000).toISOString(),
      attempts: [attempt(now, null, 'no answer within 4 s')],
    });
  });

  it('gets up to 5 deliveries at once, and holds up no other organization meanwhile', async () => {
    const { api } = await newOrganization(platform(), { test_clock_time: START, time_zone: 'UTC' });
    const other = await newOrganization(platform());
    const hanging = `/hang-${uniqueCode()}`;
    const fast = `/fast-${uniqueCode()}`;
    receiver.answer((request) => (request.path === hanging ? 'hang' : 200));
    const slow = await createWebhook(api, { endpoint: receiver.url(hanging), events: ['account.created'] });
    await createWebhook(other.api, { endpoint: receiver.url(fast), events: ['account.created'] });
    for (let index = 0; index < 3; index++) await createAccount(api);
    // Every first attempt times out (ATTEMPT_TIMEOUT_MS here) into a retry 1 min later on the organization's clock.
    await waitFor(
      async () => {
        const deliveries = await deliveriesOf(api, slow.uuid);
        return deliveries.length === 3 && deliveries.every((delivery) => (delivery.attempts as Json[]).length === 1)
          ? true
          : undefined;
      },
      { timeoutMs: 20_000, description: 'the three first attempts timed out' },
    );

    // The three retries fall due together: they are sent at once, not one timeout after another.
    const advanced = advance(api, '2026-03-01T10:01:00.000Z');
    const retries = (await receivedAt(hanging, 6)).slice(3);
    const spread = retries.at(-1)!.arrivedAt - retries[0]!.arrivedAt;
    expect(spread).toBeLessThan(ATTEMPT_TIMEOUT_MS);
    // Meanwhile another organization's delivery goes out at once.
    await createAccount(other.api);
    const [delivered] = await receivedAt(fast, 1);
    expect(delivered!.arrivedAt - retries[0]!.arrivedAt).toBeLessThan(ATTEMPT_TIMEOUT_MS);
    await advanced;
    const deliveries = await deliveriesOf(api, slow.uuid);
    expect(deliveries.map((delivery) => (delivery.attempts as Json[]).length)).toEqual([2, 2, 2]);
    // Two rounds of hanging attempts (ATTEMPT_TIMEOUT_MS each) and their waits: 12 s alone.
  }, 60_000);
});

describe('the data of billing events', () => {
  it('new_invoice, paid_invoice, cancel_subscription and plan_terms.* carry the object as its GET returns it', async () => {
    const { api } = await newOrganization(platform(), { test_clock_time: START, time_zone: 'UTC' });
    const path = `/billing-${uniqueCode()}`;
    receiver.answer(() => 200);
    await createWebhook(api, {
      endpoint: receiver.url(path),
      events: ['plan_terms.created', 'plan_terms.updated', 'new_invoice', 'paid_invoice', 'cancel_subscription'],
    });
    const account = await createAccount(api, uniqueCode(), { company_name: 'Webhook ApS' });
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK' });
    const subscription = await subscribe(api, { code: account.code, terms });
    const [listed] = await waitForInvoices(api, `subscription_uuid=${subscription.uuid}`, 1);
    // Advancing (to the same time) waits for the invoice and attempts what is due before answering.
    await advance(api, START);
    const [issued] = eventsAt(path, 'new_invoice');
    const { pdf_base64: _pdf, ...invoice } = (await api.get(invoicePath(listed!.uuid))).body;
    expect(issued).toEqual({
      event: 'new_invoice',
      data: { ...invoice, invoice_api_url: `http://127.0.0.1:8000/api/v1/invoices/${listed!.uuid}/` },
    });

    expectStatus(
      await api.post(actionPath(listed!.uuid, 'register-payment'), { registration_date: '2026-03-01' }),
      200,
    );
    await advance(api, START);
    const { pdf_base64: _paidPdf, ...paid } = (await api.get(invoicePath(listed!.uuid))).body;
    expect(eventsAt(path, 'paid_invoice')).toEqual([
      { event: 'paid_invoice', data: { ...paid, invoice_api_url: issued.data.invoice_api_url } },
    ]);

    expectStatus(
      await api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'at_renewal' }),
      200,
    );
    await advance(api, START);
    expect(eventsAt(path, 'cancel_subscription')).toEqual([
      { event: 'cancel_subscription', data: (await api.get(subscriptionPath(subscription.uuid))).body },
    ]);

    expectStatus(await api.patch(planTermsPath(terms.uuid), { active: false }), 200);
    const updatedTerms = (await api.get(planTermsPath(terms.uuid))).body;
    await waitFor(() => eventsAt(path, 'plan_terms.updated').length === 1, {
      timeoutMs: 15_000,
      description: 'plan_terms.updated',
    });
    expect(eventsAt(path, 'plan_terms.created')).toEqual([{ event: 'plan_terms.created', data: terms }]);
    expect(eventsAt(path, 'plan_terms.updated')).toEqual([{ event: 'plan_terms.updated', data: updatedTerms }]);
    expect(eventsAt(path, 'account.created')).toEqual([]);
    expect((await api.get(accountPath(account.code))).status).toBe(200);
  });
});

describe('renew_subscription_soon', () => {
  it('is delivered once, 7 days before the renewal on the organization clock, with the subscription', async () => {
    const { api } = await newOrganization(platform(), { test_clock_time: START, time_zone: 'UTC' });
    const path = `/renewal-${uniqueCode()}`;
    receiver.answer(() => 200);
    await createWebhook(api, { endpoint: receiver.url(path), events: ['renew_subscription_soon'] });
    const account = await createAccount(api);
    const plan = await createPlan(api);
    const terms = await createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK' });
    const subscription = await subscribe(api, { code: account.code, terms });
    const renewal = Date.parse(subscription.next_renewal_date as string);
    const notice = new Date(renewal - 7 * 86_400_000).toISOString();

    await advance(api, new Date(Date.parse(notice) - 1_000).toISOString());
    expect(receiver.at(path)).toEqual([]);

    await advance(api, notice);
    const [delivered] = receiver.at(path);
    expect(JSON.parse(delivered!.body)).toEqual({
      event: 'renew_subscription_soon',
      data: (await api.get(subscriptionPath(subscription.uuid))).body,
    });
    await advance(api, new Date(Date.parse(notice) + 86_400_000).toISOString());
    expect(receiver.at(path)).toHaveLength(1);

    // The renewal moves the next one a period on: its notice is due 7 days before that.
    await advance(api, new Date(renewal).toISOString());
    const renewed = (await api.get(subscriptionPath(subscription.uuid))).body;
    expect(Date.parse(renewed.next_renewal_date)).toBeGreaterThan(renewal);
    expect(receiver.at(path)).toHaveLength(1);
    await advance(api, new Date(Date.parse(renewed.next_renewal_date) - 7 * 86_400_000).toISOString());
    const next = receiver.at(path);
    expect(next).toHaveLength(2);
    expect(next[1]!.headers['webhook-id']).not.toBe(next[0]!.headers['webhook-id']);
    expect(JSON.parse(next[1]!.body).data.next_renewal_date).toBe(renewed.next_renewal_date);
  });
});
