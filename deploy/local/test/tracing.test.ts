/**
 * Issue 15's trace: the production shape (the gateway, accounts, subscriptions and analytics as
 * separate processes from their built entry points, NATS JetStream between them) with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP receiver, as an operator configures
 * it. One subscription made over HTTP is followed, as one trace, from the gateway's request span
 * through its gRPC call into the subscriptions service, the outbox row and its NATS publish, to
 * the analytics consumer that makes its activity; the services' log lines carry its ids.
 */
import { createTestSchema, type NatsServerHandle, startNatsServer, type TestSchema, waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type ChildHandle,
  ENTRY_POINTS,
  exitWithin,
  runEntryPoint,
  startEntryPoint,
} from './support/entry-points.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver.js';
import { freePort } from './support/ports.js';
import { accountInput, restClient } from './support/rest-client.js';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;
const CREATE_SUBSCRIPTION = 'billing.subscriptions.v1.SubscriptionService/CreateSubscription';

const schemas: Record<'accounts' | 'subscriptions' | 'analytics' | 'gateway', TestSchema> = {} as never;
const processes: Record<string, ChildHandle> = {};
let nats: NatsServerHandle;
let receiver: OtlpReceiver;
let gatewayUrl: string;

const outputs = () =>
  Object.entries(processes)
    .map(([name, handle]) => `${name}:\n${handle.output()}`)
    .join('\n');

beforeAll(async () => {
  assertBuilt();
  [nats, receiver] = await Promise.all([startNatsServer(), startOtlpReceiver()]);
  for (const name of ['accounts', 'subscriptions', 'analytics', 'gateway'] as const) {
    schemas[name] = await createTestSchema(name);
  }
  const ports = { accounts: await freePort(), subscriptions: await freePort(), analytics: await freePort() };
  const http = await freePort();
  // What an operator sets to send traces to a collector; a short export delay keeps the test quick.
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  for (const name of ['accounts', 'subscriptions', 'analytics'] as const) {
    processes[name] = startEntryPoint(ENTRY_POINTS[name], {
      DATABASE_URL: schemas[name].databaseUrl,
      DB_SCHEMA: schemas[name].schema,
      NATS_URL: nats.url,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(ports[name]),
      ...(name === 'accounts' ? {} : { ACCOUNTS_ADDRESS: `127.0.0.1:${ports.accounts}` }),
      LOG_LEVEL: 'info',
      ...tracing,
    });
  }
  processes.gateway = startEntryPoint(ENTRY_POINTS.gateway, {
    DATABASE_URL: schemas.gateway.databaseUrl,
    DB_SCHEMA: schemas.gateway.schema,
    HOST: '127.0.0.1',
    PORT: String(http),
    ACCOUNTS_ADDRESS: `127.0.0.1:${ports.accounts}`,
    SUBSCRIPTIONS_ADDRESS: `127.0.0.1:${ports.subscriptions}`,
    ANALYTICS_ADDRESS: `127.0.0.1:${ports.analytics}`,
    LOG_LEVEL: 'warn',
    ...tracing,
  });
  gatewayUrl = `http://127.0.0.1:${http}`;
}, 120_000);

afterAll(async () => {
  for (const handle of Object.values(processes)) {
    if (!handle.exited()) {
      handle.child.kill('SIGTERM');
      await handle.exit;
    }
  }
  await receiver?.close();
  await nats?.dispose();
  for (const schema of Object.values(schemas)) await schema?.drop();
}, 60_000);

describe('one subscription change, HTTP → gRPC → outbox → NATS → analytics, as one trace', () => {
  it('shares one trace id along the parent chain, and the log lines carry it', async () => {
    // Each service has migrated its schema and listens (the admin command then finds accounts' tables).
    const listening = await waitFor(
      () => {
        if (Object.values(processes).some((handle) => handle.exited())) return 'a process exited';
        const services = ['accounts', 'subscriptions', 'analytics'] as const;
        return services.every((name) => processes[name]!.output().includes(`${name} service listening`)) && 'listening';
      },
      { timeoutMs: 90_000, intervalMs: 200, description: 'the services to listen' },
    );
    expect(listening, outputs()).toBe('listening');
    const created = await runEntryPoint(ENTRY_POINTS.admin, ['create-org', '--name', 'Traced ApS'], {
      DATABASE_URL: schemas.accounts.databaseUrl,
      DB_SCHEMA: schemas.accounts.schema,
    });
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    const api = restClient(gatewayUrl, JSON.parse(created.stdout).token.token);
    const ready = await waitFor(
      async () => {
        if (Object.values(processes).some((handle) => handle.exited())) return 'a process exited';
        for (const list of ['/api/v1/accounts/', '/api/v1/plans/', '/api/v1/activities/']) {
          if ((await api.get(list)).status !== 200) return false;
        }
        return 'ready';
      },
      { timeoutMs: 60_000, intervalMs: 200, description: 'every process to serve through the gateway' },
    );
    expect(ready, outputs()).toBe('ready');

    expect((await api.post('/api/v1/accounts/', accountInput('traced'))).status).toBe(201);
    const plan = await api.post('/api/v1/plans/', {
      name: 'Pro',
      code: 'pro',
      collect_vat: true,
      vat_type: 'services',
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const terms = await api.post('/api/v1/planterms/', {
      plan: plan.body.uuid,
      code: 'pro-monthly',
      interval_type: 'month',
      interval_count: 1,
      price: '100',
      currency: 'DKK',
      backwards_charging: false,
    });
    expect(terms.status, JSON.stringify(terms.body)).toBe(201);
    const subscription = await api.post('/api/v1/subscriptions/', {
      account: 'traced',
      terms: terms.body.uuid,
      quantity: 2,
      collection_method: 'invoice',
    });
    expect(subscription.status, JSON.stringify(subscription.body)).toBe(201);

    // Its analytics activity: the new subscription's MRR, made by the analytics consumer.
    const activities = await waitFor(
      async () => {
        const listed = await api.get('/api/v1/activities/?type=new');
        return listed.body?.results?.length === 1 && listed.body.results;
      },
      { timeoutMs: 30_000, intervalMs: 200, description: 'the subscription’s activity in analytics' },
    );
    expect(activities[0]).toMatchObject({ type: 'new', subscription: subscription.body.uuid, mrr_change: '200.00' });

    // The spans of that request, as the receiver got them from four processes.
    const request = await waitFor(
      () => receiver.spans().find((span) => span.service === 'gateway' && span.name === 'POST /api/v1/subscriptions/'),
      { timeoutMs: 10_000, description: 'the gateway’s request span' },
    );
    const inTrace = (predicate: (span: ReceivedSpan) => boolean) =>
      receiver.spans().filter((span) => span.traceId === request.traceId && predicate(span));
    const chain = await waitFor(
      () => {
        const [client] = inTrace(
          (span) => span.service === 'gateway' && span.kind === CLIENT && span.name === CREATE_SUBSCRIPTION,
        );
        const [server] = inTrace(
          (span) => span.service === 'subscriptions' && span.kind === SERVER && span.name === CREATE_SUBSCRIPTION,
        );
        const [publish] = inTrace(
          (span) =>
            span.service === 'subscriptions' &&
            span.kind === PRODUCER &&
            span.name === 'subscriptions.subscription.changed publish',
        );
        const [consume] = inTrace(
          (span) =>
            span.service === 'analytics' &&
            span.kind === CONSUMER &&
            span.name === 'subscriptions.subscription.changed process',
        );
        return client && server && publish && consume && { client, server, publish, consume };
      },
      { timeoutMs: 15_000, intervalMs: 100, description: 'the spans from the gRPC call to the analytics consumer' },
    );

    expect(request.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(request).toMatchObject({ kind: SERVER, parentSpanId: '' });
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/v1/subscriptions/',
      'http.response.status_code': 201,
    });
    expect(chain.client.parentSpanId).toBe(request.spanId);
    expect(chain.server.parentSpanId).toBe(chain.client.spanId);
    expect(chain.server.attributes['rpc.grpc.status_code']).toBe(0);
    // The outbox row was written inside the gRPC handler: its publish continues the handler's span.
    expect(chain.publish.parentSpanId).toBe(chain.server.spanId);
    expect(chain.publish.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': 'subscriptions.subscription.changed',
    });
    expect(chain.consume.parentSpanId).toBe(chain.publish.spanId);
    expect(chain.consume.attributes).toMatchObject({
      'messaging.consumer.group.name': `${schemas.analytics.schema}-subscriptions`,
      'messaging.message.id': chain.publish.attributes['messaging.message.id'],
    });

    // The subscriptions service's log line of that call names the trace and its server span.
    const callLine = processes
      .subscriptions!.output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((line) => line.grpc_method === `/${CREATE_SUBSCRIPTION}` && line.trace_id === request.traceId);
    expect(callLine).toMatchObject({ trace_id: request.traceId, span_id: chain.server.spanId, grpc_code: 'OK' });
  }, 180_000);

  it('SIGTERM stops each traced process with exit status 0', async () => {
    for (const name of ['gateway', 'analytics', 'subscriptions', 'accounts']) {
      const handle = processes[name]!;
      expect(handle.exited(), `${name} had already exited:\n${handle.output()}`).toBeNull();
      handle.child.kill('SIGTERM');
      expect(await exitWithin(handle, 15_000), handle.output()).toEqual({ code: 0, signal: null });
    }
  }, 90_000);
});
