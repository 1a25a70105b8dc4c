/**
 * The all-in-one runner with NATS_URL: the accounts service's outbox is relayed to JetStream, so a
 * consumer outside the process reads the account events of a change made through the REST API.
 * With a metrics port, the one process serves every service's metrics and readiness.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEnvelope, JetStreamBus, streamNameFor } from '@billing/events';
import { type NatsServerHandle, startNatsServer, uniqueName, waitFor } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LocalPlatform, startLocalPlatform } from '../src/local-platform.js';
import { createDedicatedDatabase, type DedicatedDatabase } from './support/dedicated-database.js';
import { accountRoundTrip } from './support/rest-client.js';

interface SeenEvent {
  subject: string;
  event_type: string;
  organization_id: string;
  aggregate_type: string;
  aggregate_id: string;
  payload_type: string;
}

const durable = uniqueName('local_platform');
let database: DedicatedDatabase;
let dataDir: string;
let platform: LocalPlatform;
let bus: JetStreamBus;
let consumer: { stop(): Promise<void> } | undefined;
/** A private server: the durable below reads the stream from its start, never other runs' history. */
let nats: NatsServerHandle;
/** Events of every organization; each test filters by its own. */
const seen: SeenEvent[] = [];

beforeAll(async () => {
  database = await createDedicatedDatabase('billing_local_nats');
  dataDir = mkdtempSync(join(tmpdir(), 'billing-local-nats-'));
  nats = await startNatsServer();
  platform = await startLocalPlatform({
    databaseUrl: database.url,
    natsUrl: nats.url,
    gatewayPort: 0,
    logLevel: 'silent',
    dataDir,
    metrics: { host: '127.0.0.1', port: 0 },
  });
  // The platform has ensured the ACCOUNTS stream by now; a fresh durable reads it from the start.
  bus = await JetStreamBus.connect({ servers: nats.url, name: durable });
  consumer = await bus.consume({
    stream: streamNameFor('accounts'),
    durable,
    filterSubject: 'accounts.>',
    handler: async (message) => {
      const { event_type, organization_id, aggregate_type, aggregate_id, payload_type } = decodeEnvelope(message.data);
      seen.push({ subject: message.subject, event_type, organization_id, aggregate_type, aggregate_id, payload_type });
      await message.ack();
    },
  });
});

afterAll(async () => {
  await consumer?.stop();
  await bus?.close();
  await platform?.stop();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await nats?.dispose();
});

it('publishes the account.created event of a REST write to JetStream stream ACCOUNTS', async () => {
  const { organizationId, token } = await platform.createOrganization({ name: 'Events ApS' });
  const { created } = await accountRoundTrip(platform.gatewayUrl, token, 'nats-1');
  expect(created.status).toBe(201);

  // The organization's own organization.created is on the stream too; this test is about the account.
  const ofOrganization = () =>
    seen.filter((event) => event.organization_id === organizationId && event.aggregate_type === 'account');
  await waitFor(() => ofOrganization().length > 0, { timeoutMs: 15_000, description: 'account.created on JetStream' });
  expect(ofOrganization()).toEqual([
    {
      subject: 'accounts.account.created',
      event_type: 'account.created',
      organization_id: organizationId,
      aggregate_type: 'account',
      aggregate_id: created.body.uuid,
      payload_type: 'billing.events.v1.AccountChanged',
    },
  ]);
});

/** One series' value in the platform's scrape (0 when it has none yet). */
async function sample(series: string): Promise<number> {
  const text = await (await fetch(`${platform.metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

it("serves every service's metrics and readiness from the one process on its metrics port", async () => {
  const created = 'http_requests_total{method="POST",route="/api/v1/accounts/",status_code="201"}';
  const served =
    'grpc_server_handled_total{grpc_type="unary",grpc_service="billing.accounts.v1.AccountsService",grpc_method="CreateAccount",grpc_code="OK"}';
  const before = { created: await sample(created), served: await sample(served) };
  const { token } = await platform.createOrganization({ name: 'Metrics ApS' });
  expect((await accountRoundTrip(platform.gatewayUrl, token, 'nats-metrics-1')).created.status).toBe(201);
  expect({ created: await sample(created), served: await sample(served) }).toEqual({
    created: before.created + 1,
    served: before.served + 1,
  });

  const ready = await fetch(`${platform.metricsUrl}/readyz`);
  const checks = Object.fromEntries(
    ['accounts', 'subscriptions', 'invoicing', 'analytics', 'payments'].flatMap((service) => [
      [`${service}_postgres`, 'ok'],
      [`${service}_nats`, 'ok'],
    ]),
  );
  expect({ status: ready.status, body: await ready.json() }).toEqual({
    status: 200,
    body: { status: 'ready', checks },
  });
  // The durables of the services on JetStream, each with its lag.
  const text = await (await fetch(`${platform.metricsUrl}/metrics`)).text();
  expect(text).toMatch(/\nnats_consumer_pending_messages\{stream="ACCOUNTS",durable="[^"]+"\} \d+\n/);
  expect(text).toMatch(/\noutbox_pending_messages\{service="accounts"\} \d+\n/);
});
