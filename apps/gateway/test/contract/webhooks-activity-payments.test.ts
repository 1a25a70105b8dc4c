/**
 * The webhook events other services' events make beyond the first ones (gaps.md §12):
 * new_activity (on by default) from analytics' activity.created, and the opt-in payment.declined,
 * payment_card.activated and payment_card.deactivated from the payments service's events. Each
 * delivered to a local receiver and verified with the standardwebhooks library; the data is the
 * object as its GET shows it (the attempt: docs/api.md "Events").
 */
import { waitFor } from '@billing/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { ACTIVITIES, activityPath, readAnalytics } from './analytics-helpers.js';
import {
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  UUID_PATTERN,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { INVOICES, invoiceFixture, subscribe } from './invoices-helpers.js';
import { clockOrganization, SUBSCRIPTIONS } from './subscriptions-helpers.js';
import { createWebhook } from './webhooks-helpers.js';

const platform = usePlatform();
const CARDS = '/api/v1/paymentcards/';
const START = '2026-01-15T09:00:00.000Z';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** The deliveries of `event` to `path` once there are `count`, each verified with the webhook's secret. */
async function verifiedEvents(path: string, secret: string, event: string, count: number): Promise<Json[]> {
  const matching = () =>
    receiver.at(path).filter((request: ReceivedWebhook) => JSON.parse(request.body).event === event);
  const requests = await waitFor(() => (matching().length >= count ? matching() : undefined), {
    timeoutMs: 15_000,
    description: `${count} ${event} deliveries to ${path}`,
  });
  return requests.map((request) => {
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    return new Webhook(secret).verify(request.body, headers) as Json;
  });
}

const eventNames = (path: string) => receiver.at(path).map((request) => JSON.parse(request.body).event as string);

describe('new_activity', () => {
  it('delivers each recorded activity, as GET shows it, to webhooks with the default events', async () => {
    const org = await clockOrganization(platform(), START);
    const { api } = org;
    const path = `/activity-${uniqueCode()}`;
    const webhook = await createWebhook(api, { endpoint: receiver.url(path) });
    expect(webhook.events).toContain('new_activity');

    await createAccount(api, 'acme', { company_name: 'Acme ApS' });
    const plan = await createPlan(api, 'pro', { name: 'Pro' });
    const terms = await createPlanTerms(api, plan.uuid, { code: 'pro-monthly', price: '100', currency: 'DKK' });
    const created = await api.post(SUBSCRIPTIONS, {
      account: 'acme',
      terms: terms.uuid,
      quantity: 2,
      collection_method: 'invoice',
    });
    expectStatus(created, 201);

    // The start and the invoice it issued (invoice_sent), in either order.
    const first = await verifiedEvents(path, webhook.secret, 'new_activity', 2);
    const started = first.find((body) => (body.data as Json).type === 'new');
    const listed = await readAnalytics(platform(), api, `${ACTIVITIES}?type=new`);
    expect(listed.count).toBe(1);
    expect(started).toEqual({ event: 'new_activity', data: listed.results[0] });
    expect(started!.data).toMatchObject({
      type: 'new',
      subscription: created.body.uuid,
      date: START,
      old_mrr: '0.00',
      new_mrr: '200.00',
      mrr_change: '200.00',
      quantity_change: '2',
      new_terms_name: 'pro-monthly',
      new_plan: { uuid: plan.uuid, name: 'Pro', code: 'pro', model: 'plan' },
      company_name: 'Acme ApS',
    });

    // A manual activity is news too.
    const manual = await api.post(ACTIVITIES, {
      subscription: created.body.uuid,
      date: '2026-01-15T12:00:00Z',
      quantity: 3,
      terms: terms.uuid,
      mrr: '300',
    });
    expectStatus(manual, 201);
    const delivered = await verifiedEvents(path, webhook.secret, 'new_activity', 3);
    expect(delivered.map((body) => (body.data as Json).type).sort()).toEqual(['invoice_sent', 'new', 'upgrade_qty']);
    const manualDelivery = delivered.find((body) => (body.data as Json).uuid === manual.body.uuid);
    expect(manualDelivery).toEqual({
      event: 'new_activity',
      data: (await api.get(activityPath(manual.body.uuid))).body,
    });
    // Each activity once, whatever else the webhook received.
    await readAnalytics(platform(), api, ACTIVITIES);
    expect(eventNames(path).filter((name) => name === 'new_activity')).toHaveLength(3);
  });
});

describe('opt-in payment and card events', () => {
  it('deliver payment_card.activated, payment.declined and payment_card.deactivated to webhooks that name them', async () => {
    const org = await clockOrganization(platform(), START);
    const { api } = org;
    const optedIn = `/payments-${uniqueCode()}`;
    const byDefault = `/default-${uniqueCode()}`;
    const webhook = await createWebhook(api, {
      endpoint: receiver.url(optedIn),
      events: ['payment.declined', 'payment_card.activated', 'payment_card.deactivated'],
    });
    const defaults = await createWebhook(api, { endpoint: receiver.url(byDefault) });
    expect(defaults.events).not.toContain('payment.declined');

    const fixture = await invoiceFixture(api);
    const card = await api.post(CARDS, { account: fixture.account.uuid, token: 'noop_declined', gateway: 'noop' });
    expectStatus(card, 201);
    const [activated] = await verifiedEvents(optedIn, webhook.secret, 'payment_card.activated', 1);
    expect(activated).toEqual({ event: 'payment_card.activated', data: card.body });

    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await org.advance('2026-01-15T10:00:00Z');
    const invoice = (await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`)).body.results[0];
    const [declined] = await verifiedEvents(optedIn, webhook.secret, 'payment.declined', 1);
    expect(declined).toEqual({
      event: 'payment.declined',
      data: {
        uuid: expect.stringMatching(UUID_PATTERN),
        invoice: invoice.uuid,
        invoice_number: invoice.invoice_number,
        account: fixture.account.uuid,
        payment_card: card.body.uuid,
        payment_gateway: 'noop',
        amount: '125.00',
        currency: 'DKK',
        attempt: 1,
        outcome: 'declined',
        decline_reason: expect.any(String),
        attempt_date: START,
        retry_scheduled: true,
        model: 'payment_attempt',
        schema: '2026-11-22-payment_attempt',
      },
    });

    const disabled = await api.post(`${CARDS}${card.body.uuid}/disable/`, {});
    expectStatus(disabled, 200);
    const [deactivated] = await verifiedEvents(optedIn, webhook.secret, 'payment_card.deactivated', 1);
    expect(deactivated).toEqual({ event: 'payment_card.deactivated', data: disabled.body });
    expect(disabled.body.active).toBe(false);

    // The default webhook got the default events (new_invoice, ...) but none of the opt-in ones.
    await verifiedEvents(byDefault, defaults.secret, 'new_invoice', 1);
    expect(eventNames(byDefault).filter((name) => name.startsWith('payment'))).toEqual([]);
    expect(eventNames(optedIn).sort()).toEqual([
      'payment.declined',
      'payment_card.activated',
      'payment_card.deactivated',
    ]);
  });
});
