/**
 * Webhooks through HTTP (gaps.md §12): registration CRUD with a secret shown once, validation
 * naming the field, tenancy, and deliveries to a real local receiver: the body is the event name
 * and the object as its GET returns it, signed by Standard Webhooks (checked with the maintained
 * library and by hand), with Basic auth when set; disabled webhooks and other events get nothing.
 */
import { createHmac } from 'node:crypto';
import { waitFor } from '@billing/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  accountPath,
  createAccount,
  expectStatus,
  ISO_Z_PATTERN,
  type Json,
  NOT_FOUND,
  newOrganization,
  REQUIRED,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { createWebhook, deliveriesOf, deliveriesPath, WEBHOOKS, webhookPath } from './webhooks-helpers.js';

const platform = usePlatform();

const DEFAULT_EVENTS = [
  'account.created',
  'account.updated',
  'plan_terms.created',
  'plan_terms.updated',
  'new_invoice',
  'paid_invoice',
  'cancel_subscription',
  'renew_subscription_soon',
  'new_activity',
];

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** The webhook as the API shows it (never its password or secret). */
function expectedWebhook(body: Json, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    endpoint: body.endpoint,
    basic_auth_username: body.basic_auth_username ?? '',
    enabled: body.enabled ?? true,
    events: body.events ?? DEFAULT_EVENTS,
    created_date: expect.stringMatching(ISO_Z_PATTERN),
    last_modified_date: expect.stringMatching(ISO_Z_PATTERN),
    model: 'webhook',
    schema: expect.stringMatching(SCHEMA_PATTERN),
    ...overrides,
  };
}

/** The Standard Webhooks signature computed here, from the spec, without any library. */
function handSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

describe('webhook registration', () => {
  it('creates with defaults and shows the secret once; GET, list, PUT, PATCH, DELETE', async () => {
    const { api } = await newOrganization(platform());
    const body = {
      endpoint: 'https://hooks.example.com/billing',
      basic_auth_username: 'ops',
      basic_auth_password: 's3cret',
    };

    const created = await api.post(WEBHOOKS, body);

    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      expectedWebhook(body, { secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) }),
    );
    const { secret: _secret, ...shown } = created.body;
    const uuid = created.body.uuid as string;
    expect(await api.get(webhookPath(uuid))).toMatchObject({ status: 200, body: shown });
    const listed = await api.get(WEBHOOKS);
    expect(listed.body).toEqual({ count: 1, next: null, previous: null, results: [shown] });

    const replaced = await api.put(webhookPath(uuid), { endpoint: 'http://10.0.0.5/hook', events: ['new_invoice'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual(
      expectedWebhook(
        { endpoint: 'http://10.0.0.5/hook', events: ['new_invoice'], basic_auth_username: 'ops' },
        { uuid, created_date: shown.created_date },
      ),
    );
    const patched = await api.patch(webhookPath(uuid), { enabled: false });
    expect(patched.body).toMatchObject({ enabled: false, endpoint: 'http://10.0.0.5/hook', events: ['new_invoice'] });

    expect((await api.delete(webhookPath(uuid))).status).toBe(204);
    expect(await api.get(webhookPath(uuid))).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await api.get(WEBHOOKS)).body.count).toBe(0);
  });

  it('answers 400 naming the field', async () => {
    const { api } = await newOrganization(platform());
    const cases: Array<[Json, Json]> = [
      [{}, { endpoint: [REQUIRED] }],
      [{ endpoint: 'not a url' }, { endpoint: ['Enter a valid URL.'] }],
      [{ endpoint: 'ftp://example.com/x' }, { endpoint: ['Enter a valid URL.'] }],
      [
        { endpoint: 'https://example.com/x', events: ['new_invoice', 'invoice.issued'] },
        { events: ['"invoice.issued" is not a valid choice.'] },
      ],
      [{ endpoint: 'https://example.com/x', enabled: 'perhaps' }, { enabled: ['Must be a valid boolean.'] }],
      [{ endpoint: 'https://example.com/x', events: null }, { events: ['This field may not be null.'] }],
    ];
    for (const [body, errors] of cases) {
      expect(await api.post(WEBHOOKS, body)).toMatchObject({ status: 400, body: errors });
    }
    expect((await api.get(WEBHOOKS)).body.count).toBe(0);
  });

  it("another organization's webhook is 404 everywhere", async () => {
    const owner = await newOrganization(platform());
    const other = await newOrganization(platform());
    const { uuid } = await createWebhook(owner.api, { endpoint: 'https://example.com/x' });

    expect(await other.api.get(webhookPath(uuid))).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await other.api.patch(webhookPath(uuid), { enabled: false })).toMatchObject({ status: 404 });
    expect(await other.api.delete(webhookPath(uuid))).toMatchObject({ status: 404 });
    expect(await other.api.get(deliveriesPath(uuid))).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await other.api.get(WEBHOOKS)).body.count).toBe(0);
    expect((await owner.api.get(webhookPath(uuid))).status).toBe(200);
  });
});

describe('webhook deliveries', () => {
  it('POSTs account.created with the account as GET shows it, signed, with Basic auth; logs it', async () => {
    const { api } = await newOrganization(platform());
    const path = `/signed-${uniqueCode()}`;
    const webhook = await createWebhook(api, {
      endpoint: receiver.url(path),
      basic_auth_username: 'hook-user',
      basic_auth_password: 'pa:ss wörd',
      events: ['account.created'],
    });

    const code = uniqueCode();
    await createAccount(api, code, { company_name: 'Hooked ApS' });

    const [delivered] = await waitFor(() => (receiver.at(path).length > 0 ? receiver.at(path) : undefined), {
      timeoutMs: 15_000,
      description: 'the account.created delivery',
    });
    const account = (await api.get(accountPath(code))).body;
    expect(JSON.parse(delivered!.body)).toEqual({ event: 'account.created', data: account });
    expect(delivered!.headers['content-type']).toBe('application/json');
    expect(delivered!.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:pa:ss wörd').toString('base64')}`);

    const headers = {
      'webhook-id': String(delivered!.headers['webhook-id']),
      'webhook-timestamp': String(delivered!.headers['webhook-timestamp']),
      'webhook-signature': String(delivered!.headers['webhook-signature']),
    };
    expect(new Webhook(webhook.secret).verify(delivered!.body, headers)).toEqual(JSON.parse(delivered!.body));
    expect(headers['webhook-signature']).toBe(
      handSignature(webhook.secret, headers['webhook-id'], headers['webhook-timestamp'], delivered!.body),
    );
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(delivered!.body, headers),
    ).toThrow();

    const log = await waitFor(
      async () => {
        const deliveries = await deliveriesOf(api, webhook.uuid);
        return deliveries[0]?.status === 'succeeded' ? deliveries : undefined;
      },
      { description: 'the delivery logged as succeeded' },
    );
    expect(log).toEqual([
      {
        uuid: expect.stringMatching(UUID_PATTERN),
        webhook: webhook.uuid,
        event: 'account.created',
        event_id: headers['webhook-id'],
        status: 'succeeded',
        next_attempt_date: null,
        created_date: expect.stringMatching(ISO_Z_PATTERN),
        payload: { event: 'account.created', data: account },
        attempts: [
          {
            attempt_date: log[0]!.created_date,
            response_status: 200,
            error: '',
            duration_ms: expect.any(Number),
            model: 'webhook_attempt',
            schema: expect.stringMatching(SCHEMA_PATTERN),
          },
        ],
        model: 'webhook_delivery',
        schema: expect.stringMatching(SCHEMA_PATTERN),
      },
    ]);
    expect(headers['webhook-id']).toMatch(UUID_PATTERN);
  });

  it('a disabled webhook and one for other events get nothing; account.updated follows the update', async () => {
    const { api } = await newOrganization(platform());
    const all = `/all-${uniqueCode()}`;
    const everything = await createWebhook(api, { endpoint: receiver.url(all) });
    const disabled = await createWebhook(api, { endpoint: receiver.url(`/off-${uniqueCode()}`), enabled: false });
    const invoicesOnly = await createWebhook(api, {
      endpoint: receiver.url(`/inv-${uniqueCode()}`),
      events: ['new_invoice'],
    });

    const code = uniqueCode();
    await createAccount(api, code);
    expectStatus(await api.patch(accountPath(code), { company_name: 'Renamed A/S' }), 200);

    const received = await waitFor(() => (receiver.at(all).length === 2 ? receiver.at(all) : undefined), {
      timeoutMs: 15_000,
      description: 'account.created and account.updated',
    });
    const bodies = received.map((webhook) => JSON.parse(webhook.body));
    expect(bodies.map((body) => body.event).sort()).toEqual(['account.created', 'account.updated']);
    const updated = bodies.find((body) => body.event === 'account.updated');
    expect(updated.data).toEqual((await api.get(accountPath(code))).body);
    expect(received[0]!.headers['webhook-id']).not.toBe(received[1]!.headers['webhook-id']);
    // Deliveries of one event are made for every webhook in one transaction: the others have none.
    expect(await deliveriesOf(api, disabled.uuid)).toEqual([]);
    expect(await deliveriesOf(api, invoicesOnly.uuid)).toEqual([]);
    expect((await deliveriesOf(api, everything.uuid)).map((delivery) => delivery.event).sort()).toEqual([
      'account.created',
      'account.updated',
    ]);
  });
});
