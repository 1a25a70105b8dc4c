/**
 * The account list's subscription filters and the delete rule over HTTP, fed the way production
 * feeds them: `subscriptions.subscription.changed` envelopes on JetStream, consumed by the accounts
 * service's durable consumer (one per test schema). The events are published here rather than by
 * the subscriptions endpoints, so this file tests only what the accounts service promises.
 */
import { randomUUID } from 'node:crypto';
import { encodeEnvelope, JetStreamBus, subjectFor } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import { waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountPath,
  createAccount,
  expectStatus,
  listCodes,
  newOrganization,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

let bus: JetStreamBus;
beforeAll(async () => {
  bus = await JetStreamBus.connect({ servers: platform().natsUrl, name: 'contract-subscription-events' });
});
afterAll(async () => bus?.close());

/** Publishes what the subscriptions service's outbox would for one change of a subscription. */
async function publishSubscriptionChanged(input: {
  organizationId: string;
  subscription: string;
  account: string;
  status: string;
  collectionMethod: string;
  lastModified: string;
}): Promise<void> {
  const lastModified = new Date(input.lastModified);
  const eventId = randomUUID();
  const payload = subscriptionEventsV1.SubscriptionChanged.encode(
    subscriptionEventsV1.SubscriptionChanged.fromPartial({
      subscription: {
        uuid: input.subscription,
        account: input.account,
        last_modified_date: lastModified,
        quantity: 1,
        collection_method: input.collectionMethod,
        status: input.status,
      },
      change: 'updated',
      effective_at: lastModified,
    }),
  ).finish();
  await bus.publish({
    subject: subjectFor('subscriptions', 'subscription.changed'),
    messageId: eventId,
    data: encodeEnvelope({
      event_id: eventId,
      event_type: 'subscription.changed',
      schema_version: 1,
      organization_id: input.organizationId,
      occurred_at: lastModified,
      request_id: randomUUID(),
      aggregate_type: 'subscription',
      aggregate_id: input.subscription,
      payload_type: 'billing.events.v1.SubscriptionChanged',
      payload: Buffer.from(payload),
    }),
  });
}

describe('account list filters fed by subscription events', () => {
  it('subscription_status, subscription_collection_method and subscription_set_to_expire', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const active = await createAccount(api, 'active-invoice');
    const cancelled = await createAccount(api, 'not-renewing-card');
    await createAccount(api, 'no-subscriptions');
    const at = '2026-02-01T10:00:00Z';
    await publishSubscriptionChanged({
      organizationId,
      subscription: randomUUID(),
      account: active.uuid,
      status: 'active',
      collectionMethod: 'invoice',
      lastModified: at,
    });
    await publishSubscriptionChanged({
      organizationId,
      subscription: randomUUID(),
      account: cancelled.uuid,
      status: 'not_renewing',
      collectionMethod: 'payment_card',
      lastModified: at,
    });
    await waitFor(async () => (await listCodes(api, 'subscription_set_to_expire=true')).length === 1, {
      timeoutMs: 15_000,
      description: 'the not_renewing subscription in the read model',
    });
    await waitFor(async () => (await listCodes(api, 'subscription_status=active')).length === 1, {
      timeoutMs: 15_000,
      description: 'the active subscription in the read model',
    });

    const response = await api.get(`${ACCOUNTS}?subscription_status=active`);
    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 1, next: null, previous: null, results: [active] });
    expect(await listCodes(api, 'subscription_status=not_renewing')).toEqual(['not-renewing-card']);
    expect(await listCodes(api, 'subscription_status=expired')).toEqual([]);
    expect(await listCodes(api, 'subscription_collection_method=payment_card')).toEqual(['not-renewing-card']);
    expect(await listCodes(api, 'subscription_collection_method=direct_debit')).toEqual([]);
    expect(await listCodes(api, 'subscription_set_to_expire=true')).toEqual(['not-renewing-card']);
    expect(await listCodes(api, 'subscription_set_to_expire=false&ordering=code')).toEqual([
      'active-invoice',
      'no-subscriptions',
    ]);
  });

  it('DELETE answers 400 while the account has a non-expired subscription, 204 once it expired', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const account = await createAccount(api, 'subscribed');
    const subscription = randomUUID();
    const change = { organizationId, subscription, account: account.uuid, collectionMethod: 'invoice' };
    await publishSubscriptionChanged({ ...change, status: 'active', lastModified: '2026-02-01T10:00:00Z' });
    await waitFor(async () => (await listCodes(api, 'subscription_status=active')).length === 1, {
      timeoutMs: 15_000,
      description: 'the active subscription in the read model',
    });

    const refused = await api.delete(accountPath('subscribed'));
    expectStatus(refused, 400);
    expect(refused.body).toEqual({ detail: 'An account with non-expired subscriptions cannot be deleted.' });
    expectStatus(await api.get(accountPath('subscribed')), 200);

    await publishSubscriptionChanged({ ...change, status: 'expired', lastModified: '2026-02-02T10:00:00Z' });
    await waitFor(async () => (await listCodes(api, 'subscription_status=expired')).length === 1, {
      timeoutMs: 15_000,
      description: 'the expiry in the read model',
    });
    const deleted = await api.delete(accountPath('subscribed'));
    expect(deleted.status).toBe(204);
    expectStatus(await api.get(accountPath('subscribed')), 404);
  });
});
