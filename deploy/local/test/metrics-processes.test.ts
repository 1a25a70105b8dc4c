/**
 * Metrics, health and readiness of the production shape: accounts, subscriptions, invoicing,
 * payments and the gateway as separate processes, each started from its built entry point with its
 * own METRICS_PORT. Through the gateway an organization on a test clock gets a card subscription
 * that renews once (two invoices, two charges) and a webhook that acknowledges and one that does
 * not; a second organization's card is declined. Each process's GET /metrics then shows exactly
 * that: requests by route template and code, gRPC calls on both sides, renewals, invoices issued,
 * charge attempts and webhook deliveries by outcome, outbox backlog and consumer lag, process
 * metrics. /readyz follows the process's Postgres and NATS: cut behind a TCP proxy, it answers 503
 * naming them (and gRPC health NOT_SERVING), and 200 again once they are back.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkHealth, ServingStatus } from '@billing/grpc';
import { createTestSchema, type TestSchema, testDatabaseUrl, testNatsUrl, waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type ChildHandle,
  ENTRY_POINTS,
  exitWithin,
  runEntryPoint,
  startEntryPoint,
} from './support/entry-points.js';
import { freePort } from './support/ports.js';
import { accountInput, type RestResponse, restClient } from './support/rest-client.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const SERVICES = ['accounts', 'subscriptions', 'invoicing', 'payments'] as const;
type Service = (typeof SERVICES)[number];
type ProcessName = Service | 'gateway';

const schemas = {} as Record<ProcessName, TestSchema>;
const grpcPorts = {} as Record<Service, number>;
const metricsPorts = {} as Record<ProcessName, number>;
const handles = {} as Partial<Record<ProcessName, ChildHandle>>;
let gatewayUrl: string;
let mailOutbox: string;
/** Payments reaches Postgres and NATS through these, so a test can take them away. */
let paymentsDatabase: TcpProxy;
let paymentsNats: TcpProxy;
let receiver: Server;
let receiverUrl: string;

const metricsUrl = (name: ProcessName) => `http://127.0.0.1:${metricsPorts[name]}`;
const outputs = () =>
  Object.entries(handles)
    .map(([name, handle]) => `${name}:\n${handle!.output()}`)
    .join('\n');

/** The scrape of one process, parsed: series (`name{labels}`) → value. */
async function scrape(name: ProcessName): Promise<Map<string, number>> {
  const response = await fetch(`${metricsUrl(name)}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const series = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** Every series of `metric`, without the metric name: `{labels}` → value. */
function seriesOf(scraped: Map<string, number>, metric: string): Record<string, number> {
  return Object.fromEntries(
    [...scraped]
      .filter(([key]) => key === metric || key.startsWith(`${metric}{`))
      .map(([key, value]) => [key.slice(metric.length), value]),
  );
}

const labels = (values: Record<string, string>) =>
  `{${Object.entries(values)
    .map(([key, value]) => `${key}="${value}"`)
    .join(',')}}`;

const grpc = (service: string, method: string, code = 'OK') =>
  labels({ grpc_type: 'unary', grpc_service: `billing.${service}`, grpc_method: method, grpc_code: code });

function expectStatus(response: RestResponse, status: number): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
}

async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

function startService(name: Service, env: Record<string, string>): ChildHandle {
  return startEntryPoint(ENTRY_POINTS[name], {
    DATABASE_URL: schemas[name].databaseUrl,
    DB_SCHEMA: schemas[name].schema,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPorts[name]),
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: String(metricsPorts[name]),
    LOG_LEVEL: 'warn',
    ...env,
  });
}

beforeAll(async () => {
  assertBuilt();
  for (const name of [...SERVICES, 'gateway'] as const) {
    schemas[name] = await createTestSchema(name);
    metricsPorts[name] = await freePort();
  }
  for (const name of SERVICES) grpcPorts[name] = await freePort();
  mailOutbox = mkdtempSync(path.join(tmpdir(), 'metrics-mail-'));
  const database = new URL(testDatabaseUrl());
  paymentsDatabase = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
  const nats = new URL(testNatsUrl());
  paymentsNats = await startTcpProxy({ host: nats.hostname, port: Number(nats.port || 4222) });

  // Webhook receivers: /ok acknowledges, /failing answers 500.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.url === '/ok' ? 200 : 500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

  const accountsAddress = `127.0.0.1:${grpcPorts.accounts}`;
  const invoicingAddress = `127.0.0.1:${grpcPorts.invoicing}`;
  handles.accounts = startService('accounts', {});
  handles.subscriptions = startService('subscriptions', { ACCOUNTS_ADDRESS: accountsAddress });
  handles.invoicing = startService('invoicing', { ACCOUNTS_ADDRESS: accountsAddress, MAIL_OUTBOX_DIR: mailOutbox });
  const proxiedDatabase = new URL(schemas.payments.databaseUrl);
  proxiedDatabase.host = `127.0.0.1:${paymentsDatabase.port}`;
  handles.payments = startService('payments', {
    DATABASE_URL: proxiedDatabase.toString(),
    NATS_URL: `nats://127.0.0.1:${paymentsNats.port}`,
    ACCOUNTS_ADDRESS: accountsAddress,
    INVOICING_ADDRESS: invoicingAddress,
    MAIL_OUTBOX_DIR: mailOutbox,
  });
  const httpPort = await freePort();
  handles.gateway = startEntryPoint(ENTRY_POINTS.gateway, {
    DATABASE_URL: schemas.gateway.databaseUrl,
    DB_SCHEMA: schemas.gateway.schema,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: String(metricsPorts.gateway),
    ACCOUNTS_ADDRESS: accountsAddress,
    SUBSCRIPTIONS_ADDRESS: `127.0.0.1:${grpcPorts.subscriptions}`,
    INVOICING_ADDRESS: invoicingAddress,
    PAYMENTS_ADDRESS: `127.0.0.1:${grpcPorts.payments}`,
    LOG_LEVEL: 'warn',
  });
  gatewayUrl = `http://127.0.0.1:${httpPort}`;

  // Bounded wait for every process to say it is ready; one that died ends the wait at once.
  const ready = await waitFor(
    async () => {
      if (Object.values(handles).some((handle) => handle!.exited())) return 'a process exited';
      for (const name of [...SERVICES, 'gateway'] as const) {
        if ((await fetch(`${metricsUrl(name)}/readyz`)).status !== 200) return false;
      }
      return 'ready';
    },
    { timeoutMs: 60_000, intervalMs: 200, description: 'every process to be ready' },
  );
  expect(ready, outputs()).toBe('ready');
}, 90_000);

afterAll(async () => {
  for (const handle of Object.values(handles)) {
    if (handle && !handle.exited()) {
      handle.child.kill('SIGKILL');
      await handle.exit;
    }
  }
  await paymentsDatabase?.close();
  await paymentsNats?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  for (const schema of Object.values(schemas)) await schema.drop();
  rmSync(mailOutbox, { recursive: true, force: true });
});

async function organization(name: string, testClockTime: string) {
  const created = await runEntryPoint(
    ENTRY_POINTS.admin,
    ['create-org', '--name', name, '--test-clock-time', testClockTime, '--time-zone', 'UTC'],
    { DATABASE_URL: schemas.accounts.databaseUrl, DB_SCHEMA: schemas.accounts.schema },
  );
  expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
  return restClient(gatewayUrl, JSON.parse(created.stdout).token.token);
}

/** An account with a card of `token` (noop gateway) and a monthly 100.00 DKK card subscription. */
async function cardSubscription(api: ReturnType<typeof restClient>, code: string, token: string) {
  const account = await api.post('/api/v1/accounts/', accountInput(code));
  expectStatus(account, 201);
  const card = await api.post('/api/v1/paymentcards/', { account: account.body.uuid, token, gateway: 'noop' });
  expectStatus(card, 201);
  const plan = await api.post('/api/v1/plans/', {
    name: 'Pro',
    code: `plan-${code}`,
    collect_vat: true,
    vat_type: 'services',
  });
  expectStatus(plan, 201);
  const terms = await api.post('/api/v1/planterms/', {
    plan: plan.body.uuid,
    code: `terms-${code}`,
    interval_type: 'month',
    interval_count: 1,
    price: '100.00',
    currency: 'DKK',
    backwards_charging: false,
  });
  expectStatus(terms, 201);
  const subscription = await api.post('/api/v1/subscriptions/', {
    account: code,
    terms: terms.body.uuid,
    collection_method: 'payment_card',
  });
  expectStatus(subscription, 201);
}

async function advance(api: ReturnType<typeof restClient>, to: string): Promise<void> {
  expectStatus(await api.post('/api/v1/test-clock/advance/', { to }), 200);
}

describe('every process serves /metrics', () => {
  it('counts what a renewal, its invoices, charges and webhooks did, in the process that did it', async () => {
    const renewing = await organization('Metrics Renewing ApS', '2026-01-15T09:00:00Z');
    for (const endpoint of ['ok', 'failing']) {
      const webhook = await renewing.post('/api/v1/webhooks/', {
        endpoint: `${receiverUrl}/${endpoint}`,
        events: ['new_invoice'],
      });
      expectStatus(webhook, 201);
    }
    await cardSubscription(renewing, 'renewing-1', 'noop_visa');
    // The first invoice, paid by card; then a month later the renewal, its invoice, its charge.
    await advance(renewing, '2026-01-15T09:00:00Z');
    await advance(renewing, '2026-02-15T09:00:00Z');

    const declining = await organization('Metrics Declined ApS', '2026-01-15T09:00:00Z');
    await cardSubscription(declining, 'declining-1', 'noop_declined');
    await advance(declining, '2026-01-15T09:00:00Z');

    expectStatus(await renewing.get('/api/v1/accounts/renewing-1/'), 200);
    expectStatus(await renewing.get('/api/v1/accounts/no-such-account/'), 404);
    expect((await fetch(`${gatewayUrl}/no/such/path/`)).status).toBe(404);

    const gateway = await scrape('gateway');
    expect(seriesOf(gateway, 'http_requests_total')).toMatchObject({
      '{method="POST",route="/api/v1/accounts/",status_code="201"}': 2,
      '{method="POST",route="/api/v1/test-clock/advance/",status_code="200"}': 3,
      '{method="GET",route="/api/v1/accounts/{code}/",status_code="200"}': 1,
      '{method="GET",route="/api/v1/accounts/{code}/",status_code="404"}': 1,
      '{method="GET",route="unmatched",status_code="404"}': 1,
    });
    // Never a path with an id in it.
    expect(Object.keys(seriesOf(gateway, 'http_requests_total')).filter((key) => key.includes('renewing-1'))).toEqual(
      [],
    );
    expect(
      gateway.get(
        'http_request_duration_seconds_count{method="POST",route="/api/v1/test-clock/advance/",status_code="200"}',
      ),
    ).toBe(3);
    expect(gateway.get(`grpc_client_handled_total${grpc('accounts.v1.AccountsService', 'CreateAccount')}`)).toBe(2);
    expect(
      gateway.get(`grpc_client_handled_total${grpc('accounts.v1.AccountsService', 'GetAccount', 'NOT_FOUND')}`),
    ).toBe(1);
    expect(gateway.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);

    const accounts = await scrape('accounts');
    expect(accounts.get(`grpc_server_handled_total${grpc('accounts.v1.AccountsService', 'CreateAccount')}`)).toBe(2);
    expect(
      accounts.get(`grpc_server_handling_seconds_count${grpc('accounts.v1.AccountsService', 'CreateAccount')}`),
    ).toBe(2);
    // Two invoices: /ok acknowledged both; /failing refused both, and the first one's retry
    // (due a minute after it, attempted at the second advance) too.
    expect(seriesOf(accounts, 'billing_webhook_deliveries_total')).toEqual({
      '{outcome="succeeded"}': 2,
      '{outcome="retrying"}': 3,
    });

    const subscriptions = await scrape('subscriptions');
    expect(subscriptions.get('billing_subscriptions_renewed_total')).toBe(1);

    const invoicing = await scrape('invoicing');
    expect(invoicing.get('billing_invoices_issued_total')).toBe(3);

    const payments = await scrape('payments');
    expect(seriesOf(payments, 'billing_charge_attempts_total')).toEqual({
      '{outcome="succeeded"}': 2,
      '{outcome="declined"}': 1,
    });
    expect(payments.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('shows each outbox emptied by its relay, and each durable of a process caught up', async () => {
    for (const name of SERVICES) {
      const drained = await waitFor(
        async () => {
          const scraped = await scrape(name);
          return scraped.get(`outbox_pending_messages{service="${name}"}`) === 0 &&
            scraped.get(`outbox_oldest_pending_age_seconds{service="${name}"}`) === 0
            ? scraped
            : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 200, description: `${name}'s outbox to be empty` },
      );
      expect(drained.has(`outbox_pending_messages{service="${name}"}`)).toBe(true);
    }
    // Payments consumes invoicing's invoice.issued (and accounts' changes): every durable is listed, at 0.
    const caughtUp = await waitFor(
      async () => {
        const scraped = await scrape('payments');
        const pending = seriesOf(scraped, 'nats_consumer_pending_messages');
        const unacked = seriesOf(scraped, 'nats_consumer_ack_pending_messages');
        const durables = Object.keys(pending);
        return durables.length > 0 &&
          durables.every((key) => pending[key] === 0 && unacked[key] === 0) &&
          Object.keys(unacked).length === durables.length
          ? durables
          : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, description: "payments' durables to catch up" },
    );
    expect(caughtUp.some((key) => key.startsWith('{stream="INVOICING",durable="'))).toBe(true);
  });
});

describe('health and readiness', () => {
  it('answers /healthz and /readyz on the gateway API port, without /metrics there', async () => {
    expect(await getJson(`${gatewayUrl}/healthz`)).toEqual({ status: 200, body: { status: 'alive' } });
    expect(await getJson(`${gatewayUrl}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { postgres: 'ok' } },
    });
    expect((await fetch(`${gatewayUrl}/metrics`)).status).toBe(404);
  });

  it("reports a service not ready while its Postgres or NATS is unreachable, and ready again once they're back", async () => {
    const readyz = () => getJson(`${metricsUrl('payments')}/readyz`);
    const paymentsGrpc = `127.0.0.1:${grpcPorts.payments}`;
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { postgres: 'ok', nats: 'ok' } } });

    await paymentsDatabase.cut();
    await paymentsNats.cut();
    // The NATS client notices the cut connection at once or at its next ping: either way, disconnected.
    const unreachable = {
      status: 503,
      body: {
        status: 'not ready',
        checks: {
          postgres: `connect ECONNREFUSED 127.0.0.1:${paymentsDatabase.port}`,
          nats: 'connection disconnected',
        },
      },
    };
    const down = await waitFor(
      async () => {
        const answer = await readyz();
        return JSON.stringify(answer) === JSON.stringify(unreachable) ? answer : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 200, description: 'payments to answer /readyz 503' },
    ).catch(async () => readyz());
    expect(down).toEqual(unreachable);
    // gRPC health follows within its refresh interval; liveness stays.
    await waitFor(async () => (await checkHealth(paymentsGrpc)) === ServingStatus.NOT_SERVING, {
      timeoutMs: 15_000,
      intervalMs: 200,
      description: 'payments to report NOT_SERVING',
    });
    expect(await getJson(`${metricsUrl('payments')}/healthz`)).toEqual({ status: 200, body: { status: 'alive' } });

    await paymentsDatabase.restore();
    await paymentsNats.restore();
    const back = await waitFor(async () => ((await readyz()).status === 200 ? readyz() : undefined), {
      timeoutMs: 20_000,
      intervalMs: 200,
      description: 'payments to be ready again',
    });
    expect(back).toEqual({ status: 200, body: { status: 'ready', checks: { postgres: 'ok', nats: 'ok' } } });
    await waitFor(async () => (await checkHealth(paymentsGrpc)) === ServingStatus.SERVING, {
      timeoutMs: 15_000,
      intervalMs: 200,
      description: 'payments to report SERVING again',
    });
    expect(handles.payments!.exited(), outputs()).toBeNull();
  });

  it('closes the metrics port with the process on SIGTERM, which exits with status 0', async () => {
    const handle = handles.subscriptions!;
    handle.child.kill('SIGTERM');
    expect(await exitWithin(handle, 10_000), handle.output()).toEqual({ code: 0, signal: null });
    await expect(fetch(`${metricsUrl('subscriptions')}/healthz`)).rejects.toThrow();
  });
});
