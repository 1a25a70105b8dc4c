/**
 * The webhooks' durable consumers exist only once an enabled webhook takes their event
 * (events/webhook-durables.ts): none at start; a webhook change makes its durable before it
 * commits, delivering what the stream stores from then on; another replica consumes it once it
 * heard of the change (the replica that made it may be gone); a start consumes the durables that
 * exist, and makes a missing one (NATS lost it) that an enabled webhook needs from the stream's start.
 * Two accounts processes (replicas) on one schema and a private JetStream server.
 */
import { StatusCode } from '@billing/errors';
import {
  type EventBus,
  type EventEnvelope,
  encodeEnvelope,
  JetStreamBus,
  streamNameFor,
  subjectFor,
} from '@billing/events';
import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { createLogger, type RequestContext } from '@billing/observability';
import { webhooksV1 } from '@billing/proto';
import { type RunningService, startService } from '@billing/runtime';
import {
  createTestSchema,
  type NatsServerHandle,
  startNatsServer,
  TestClock,
  type TestSchema,
  waitFor,
} from '@billing/testing';
import { AckPolicy, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookConsumerName } from '../src/events/webhook-consumers.js';
import { WEBHOOK_EVENT_MAP } from '../src/events/webhook-event-map.js';
import { createAccountsModule } from '../src/service.js';
import { createOrganization } from '../src/use-cases/organizations.js';
import { invoiceIssued } from './support/invoice-events.js';

// Nothing listens on port 9: attempts fail, which does not matter here.
const ENDPOINT = 'http://127.0.0.1:9/hook';
const DELIVERY_TIMEOUT_MS = 20_000;

const clock = new TestClock('2026-01-15T09:00:00Z');
let nats: NatsServerHandle;
let database: TestSchema;
const buses: EventBus[] = [];
const replicas: RunningService[] = [];

/** A replica: the accounts module on the shared schema, with its own NATS connection. */
async function startReplica(): Promise<{
  service: RunningService;
  webhooks: GrpcClient<typeof webhooksV1.WebhookServiceService>;
}> {
  const bus = await JetStreamBus.connect({ servers: nats.url, name: 'webhook-durables-test' });
  buses.push(bus);
  const service = await startService(createAccountsModule({ webhooks: { pollIntervalMs: 60_000 } }), {
    databaseUrl: database.databaseUrl,
    schema: database.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    bus,
    migrateOnStart: true,
  });
  replicas.push(service);
  return { service, webhooks: createGrpcClient(webhooksV1.WebhookServiceClient, service.address) };
}

beforeAll(async () => {
  nats = await startNatsServer();
  database = await createTestSchema('accounts');
});

afterAll(async () => {
  for (const service of replicas) await service.stop().catch(() => {});
  for (const bus of buses) await bus.close().catch(() => {});
  await nats?.dispose();
  await database?.drop();
});

const durableOf = (eventType: string) => webhookConsumerName(database.schema, { eventType });

/** Which webhook durables exist, by event type. */
async function existingDurables(bus: EventBus): Promise<string[]> {
  const found: string[] = [];
  for (const mapping of WEBHOOK_EVENT_MAP) {
    if (await bus.durableExists(streamNameFor(mapping.producer), durableOf(mapping.eventType))) {
      found.push(mapping.eventType);
    }
  }
  return found;
}

const publish = (bus: EventBus, envelope: EventEnvelope) =>
  bus.publish({
    subject: subjectFor('invoicing', 'invoice.issued'),
    messageId: envelope.event_id,
    data: encodeEnvelope(envelope),
  });

async function deliveredEvents(
  webhooks: GrpcClient<typeof webhooksV1.WebhookServiceService>,
  context: RequestContext,
  webhook: string,
): Promise<string[]> {
  const reply = await webhooks.call(
    'listWebhookDeliveries',
    { webhook, page: { page: 1, page_size: 50, ordering: '' } },
    { context },
  );
  return reply.deliveries.map((delivery) => delivery.event_id).sort();
}

async function deliveredExactly(
  webhooks: GrpcClient<typeof webhooksV1.WebhookServiceService>,
  context: RequestContext,
  webhook: string,
  events: readonly EventEnvelope[],
  description: string,
): Promise<void> {
  const expected = events.map((event) => event.event_id).sort();
  let seen: string[] = [];
  await waitFor(
    async () => {
      seen = await deliveredEvents(webhooks, context, webhook);
      return seen.length >= expected.length;
    },
    { timeoutMs: DELIVERY_TIMEOUT_MS, description },
  );
  expect(seen).toEqual(expected);
}

describe('webhook durables', () => {
  it('exist once a webhook takes their event; replicas share them; a start resumes or remakes them', async () => {
    const first = await startReplica();
    const second = await startReplica();
    const bus = buses[0]!;
    await bus.ensureStream('invoicing');
    expect(await existingDurables(bus)).toEqual([]);

    const { organization } = await createOrganization({ orm: first.service.orm, clock }, { name: 'Durables' });
    const context: RequestContext = { requestId: 'test', organizationId: organization.id, clientSystem: 'test' };
    // Stored before any webhook existed: no consumer for webhooks takes it, now or later.
    const beforeWebhook = invoiceIssued(organization.id);
    await publish(bus, beforeWebhook);

    const created = await first.webhooks.call(
      'createWebhook',
      { webhook: { endpoint: ENDPOINT, events: ['new_invoice'] }, present_fields: ['endpoint', 'events'] },
      { context },
    );
    const webhook = created.webhook!.uuid;
    // Made before the webhook was committed: only the taken event's durable.
    expect(await existingDurables(bus)).toEqual(['invoice.issued']);

    const afterWebhook = invoiceIssued(organization.id);
    await publish(bus, afterWebhook);
    await deliveredExactly(first.webhooks, context, webhook, [afterWebhook], 'the event stored after the webhook');

    // The replica that made the webhook is gone: the other heard of the change and consumes.
    await first.service.stop();
    const whileFirstIsGone = invoiceIssued(organization.id);
    await publish(bus, whileFirstIsGone);
    await deliveredExactly(
      second.webhooks,
      context,
      webhook,
      [afterWebhook, whileFirstIsGone],
      'the event consumed by the other replica',
    );

    // NATS lost the durable while no replica ran: a start remakes it from the stream's first
    // message, because an enabled webhook takes its event (the inbox makes old copies no-ops;
    // the event from before the webhook is delivered now, as every webhook durable did before).
    await second.service.stop();
    const connection = await connect({ servers: nats.url });
    try {
      await (await jetstreamManager(connection)).consumers.delete('INVOICING', durableOf('invoice.issued'));
    } finally {
      await connection.close();
    }
    expect(await existingDurables(bus)).toEqual([]);
    const third = await startReplica();
    expect(await existingDurables(bus)).toEqual(['invoice.issued']);
    await deliveredExactly(
      third.webhooks,
      context,
      webhook,
      [beforeWebhook, afterWebhook, whileFirstIsGone],
      'the stream replayed into the remade durable',
    );

    // A disabled webhook needs no durable; enabling one for paid invoices makes it.
    await third.webhooks.call(
      'createWebhook',
      {
        webhook: { endpoint: ENDPOINT, events: ['new_activity'], enabled: false },
        present_fields: ['endpoint', 'events', 'enabled'],
      },
      { context },
    );
    expect(await existingDurables(bus)).toEqual(['invoice.issued']);
    await third.webhooks.call(
      'updateWebhook',
      {
        uuid: webhook,
        webhook: { events: ['new_invoice', 'paid_invoice'] },
        present_fields: ['events'],
        replace: false,
      },
      { context },
    );
    expect(await existingDurables(bus)).toEqual(['invoice.issued', 'invoice.paid']);

    // A durable of that name filtering other events (made by hand): a fault a retry would meet
    // again, so an internal error rather than "unavailable, retry"; nothing is stored.
    await bus.ensureStream('payments');
    const manager = await connect({ servers: nats.url });
    try {
      await (await jetstreamManager(manager)).consumers.add('PAYMENTS', {
        durable_name: durableOf('payment.declined'),
        filter_subject: 'payments.something.else',
        ack_policy: AckPolicy.Explicit,
      });
    } finally {
      await manager.close();
    }
    await expect(
      third.webhooks.call(
        'createWebhook',
        { webhook: { endpoint: ENDPOINT, events: ['payment.declined'] }, present_fields: ['endpoint', 'events'] },
        { context },
      ),
    ).rejects.toMatchObject({ code: StatusCode.INTERNAL });

    // Without NATS a webhook whose durable is missing is not made: the change fails as unavailable
    // (REST 503) and nothing is stored, rather than a webhook that would miss its events. Within
    // the caller's deadline (2 s here, less than the 3 s the durables get at most), with the
    // transaction's margin left: the caller hears why rather than a timeout.
    await nats.stop();
    await expect(
      third.webhooks.call(
        'createWebhook',
        { webhook: { endpoint: ENDPOINT, events: ['account.created'] }, present_fields: ['endpoint', 'events'] },
        { context, deadlineMs: 2_000 },
      ),
    ).rejects.toMatchObject({ code: StatusCode.UNAVAILABLE, reason: 'EVENTS_UNAVAILABLE' });
    // Less time left than the transaction's margin (900 ms): no wait for the bus at all, and the
    // answer says the time ran out (the service's own message, before the client's deadline).
    await expect(
      third.webhooks.call(
        'createWebhook',
        { webhook: { endpoint: ENDPOINT, events: ['account.created'] }, present_fields: ['endpoint', 'events'] },
        { context, deadlineMs: 900 },
      ),
    ).rejects.toMatchObject({
      code: StatusCode.DEADLINE_EXCEEDED,
      message: 'The request ran out of time; the webhook was not changed.',
    });
    const listed = await third.webhooks.call(
      'listWebhooks',
      { page: { page: 1, page_size: 50, ordering: '' } },
      { context },
    );
    expect(listed.webhooks.map((row) => row.events.join(',')).sort()).toEqual([
      'new_activity',
      'new_invoice,paid_invoice',
    ]);
  });
});
