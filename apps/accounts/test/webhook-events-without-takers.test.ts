/**
 * An event no enabled webhook of its organization takes is acknowledged by the webhook consumers
 * without a transaction or an inbox row, once this process knows the organization's webhooks to be
 * current; a copy of it processed after a webhook that takes it was made gets its delivery once,
 * and the copies after that none (webhook-consumers.ts, ignoredByWebhooks). A producer's
 * hand-over (ApplyEvents) gives such an event no webhook feed either (webhook-feeds.ts).
 */
import { randomUUID } from 'node:crypto';
import { openPool } from '@billing/db';
import { type EventEnvelope, encodeEnvelope, handleEventOnce } from '@billing/events';
import { createLogger, type RequestContext } from '@billing/observability';
import { webhooksV1 } from '@billing/proto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ignoredByWebhooks, webhookConsumerName, webhookEventHandler } from '../src/events/webhook-consumers.js';
import { webhookFeeds } from '../src/events/webhook-feeds.js';
import { createAccountsModule } from '../src/service.js';
import { applyReadModelEvents } from '../src/use-cases/apply-read-model-events.js';
import { EnabledWebhooks } from '../src/use-cases/webhooks/enabled-webhooks.js';
import { createWebhook } from '../src/use-cases/webhooks/manage-webhooks.js';
import type { WebhooksDeps } from '../src/use-cases/webhooks/webhooks-deps.js';
import { startWebhookChangeListener } from '../src/workers/webhook-change-listener.js';
import { useAccountsService } from './support/accounts-service.js';
import { invoiceIssued } from './support/invoice-events.js';
import { testWebhooksDeps } from './support/webhooks-deps.js';

// Nothing listens on port 9: attempts fail, which does not matter here.
const ENDPOINT = 'http://127.0.0.1:9/hook';

// The service stands for another replica: its webhook changes reach this "replica" (the deps
// below, with their own cache and listener) only by their notifications.
const accounts = useAccountsService(
  webhooksV1.WebhookServiceClient,
  createAccountsModule({ webhooks: { pollIntervalMs: 60_000 } }),
);

let pool: pg.Pool;
let cache: EnabledWebhooks;
let listener: { stop(): Promise<void> };
let deps: WebhooksDeps;

beforeAll(async () => {
  const database = accounts.database();
  pool = openPool({ clientUrl: database.databaseUrl, schema: database.schema, max: 2 });
  cache = new EnabledWebhooks(60_000);
  listener = startWebhookChangeListener(pool, cache, createLogger('test', 'silent'));
  deps = testWebhooksDeps({ orm: accounts.service().orm, pool, clock: accounts.clock, enabledWebhooks: cache });
  // Listening before the tests: until then the cache stores nothing.
  const probe = randomUUID();
  await until(() => {
    cache.store(cache.readStarted(), new Map([[probe, []]]));
    return cache.takes(probe, 'new_invoice', null) === false;
  });
});

afterAll(async () => {
  await listener?.stop();
  await pool?.end();
});

async function rows(sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  return (await pool.query(sql, values)).rows;
}

const inboxRows = (consumer: string, envelope: EventEnvelope) =>
  rows('select message_id from inbox where consumer = $1 and message_id = $2', [consumer, envelope.event_id]);

const deliveryRows = (envelope: EventEnvelope) =>
  rows('select webhook_id, event_name from webhook_delivery where event_id = $1', [envelope.event_id]);

/**
 * When the bus stored the events consumed here, unless a test says otherwise: before any read of
 * the webhooks (a backlog), so that what the cache knows applies to them.
 */
const STORED_EARLIER = new Date(Date.now() - 60_000);

/** What the durable consumer does with one copy of the event: acknowledge it at once, or handle it once. */
async function consume(
  consumer: string,
  envelope: EventEnvelope,
  { storedAt = STORED_EARLIER, using = deps }: { storedAt?: Date; using?: WebhooksDeps } = {},
): Promise<'ignored' | 'handled' | 'done before'> {
  if (ignoredByWebhooks(using)(envelope, storedAt)) return 'ignored';
  return (await handleEventOnce({ orm: using.orm, consumer, clock: using.clock }, envelope, webhookEventHandler(using)))
    ? 'handled'
    : 'done before';
}

async function until(condition: () => boolean): Promise<void> {
  // Long enough for a notification on a loaded machine.
  for (let i = 0; i < 250 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(condition()).toBe(true);
}

describe('events no webhook takes', () => {
  it('are acknowledged without an inbox row once the webhooks are known; a later copy finds the new webhook, once', async () => {
    const { context, organizationId } = await accounts.organization();
    const consumer = webhookConsumerName(deps.orm.config.get('schema') as string, { eventType: 'invoice.issued' });
    const first = invoiceIssued(organizationId);
    const second = invoiceIssued(organizationId);

    // Not known yet: through the transaction (inbox row, no delivery), whose read fills the cache.
    expect(await consume(consumer, first)).toBe('handled');
    expect(await inboxRows(consumer, first)).toHaveLength(1);
    // Known now: no webhook takes new_invoice, so the next event leaves no row at all.
    expect(await consume(consumer, second)).toBe('ignored');
    expect(await inboxRows(consumer, second)).toEqual([]);

    // Another replica (the service) makes a webhook that takes it: its notification drops the entry.
    const reply = await accounts.client.call(
      'createWebhook',
      { webhook: { endpoint: ENDPOINT, events: ['new_invoice'] }, present_fields: ['endpoint', 'events'] },
      { context },
    );
    const webhook = reply.webhook!.uuid;
    await until(
      () =>
        cache.takes(organizationId, 'new_invoice', null) !== true &&
        ignoredByWebhooks(deps)(second, STORED_EARLIER) === false,
    );

    // A redelivery of the skipped event is processed now: the webhook of its time gets it, once.
    expect(await consume(consumer, second)).toBe('handled');
    expect(await consume(consumer, second)).toBe('done before');
    expect(await deliveryRows(second)).toEqual([{ webhook_id: webhook, event_name: 'new_invoice' }]);
    // The event processed before the webhook existed keeps its outcome: its inbox row stands.
    expect(await consume(consumer, first)).toBe('done before');
    expect(await deliveryRows(first)).toEqual([]);
    // Known again, and it takes new_invoice: events are not skipped.
    expect(cache.takes(organizationId, 'new_invoice', null)).toBe(true);
    expect(ignoredByWebhooks(deps)(invoiceIssued(organizationId), STORED_EARLIER)).toBe(false);
  });

  it("an event stored after another replica's new webhook reaches it, though this replica has not heard of it yet", async () => {
    const { context, organizationId } = await accounts.organization();
    const consumer = webhookConsumerName(deps.orm.config.get('schema') as string, { eventType: 'invoice.issued' });
    // A replica whose notification of the change is late: listening, but nothing ever tells it.
    const late = new EnabledWebhooks(60_000);
    late.listeningStarted();
    const lateDeps = { ...deps, enabledWebhooks: late };
    expect(await consume(consumer, invoiceIssued(organizationId), { using: lateDeps })).toBe('handled');
    expect(late.takes(organizationId, 'new_invoice', null)).toBe(false);

    const reply = await accounts.client.call(
      'createWebhook',
      { webhook: { endpoint: ENDPOINT, events: ['new_invoice'] }, present_fields: ['endpoint', 'events'] },
      { context },
    );
    // Stored after the webhook's commit: its read began before, so it does not decide this event.
    const after = invoiceIssued(organizationId);
    expect(await consume(consumer, after, { storedAt: new Date(), using: lateDeps })).toBe('handled');
    expect(await deliveryRows(after)).toEqual([{ webhook_id: reply.webhook!.uuid, event_name: 'new_invoice' }]);
  });

  it("this process's own change is known at once, before any notification", async () => {
    const { context, organizationId } = await accounts.organization();
    const consumer = webhookConsumerName(deps.orm.config.get('schema') as string, { eventType: 'invoice.issued' });
    expect(await consume(consumer, invoiceIssued(organizationId))).toBe('handled');
    const skipped = invoiceIssued(organizationId);
    expect(await consume(consumer, skipped)).toBe('ignored');

    const { webhook } = await createWebhook(deps, context as RequestContext, {
      values: { endpoint: ENDPOINT, events: ['new_invoice'] },
      present: new Set(['endpoint', 'events']),
    });
    // No waiting: the entry was dropped before the change began and is not stored until it ended.
    const next = invoiceIssued(organizationId);
    expect(await consume(consumer, next)).toBe('handled');
    expect(await deliveryRows(next)).toEqual([{ webhook_id: webhook.uuid, event_name: 'new_invoice' }]);
  });

  it('a hand-over gives them no webhook feed (no inbox row); once a webhook takes them, its delivery, once', async () => {
    const { context, organizationId } = await accounts.organization();
    const consumer = webhookConsumerName(deps.orm.config.get('schema') as string, { eventType: 'invoice.issued' });
    const handOver = applyReadModelEvents(
      { orm: deps.orm, clock: deps.clock, logger: createLogger('test', 'silent') },
      webhookFeeds(deps),
    );
    const first = invoiceIssued(organizationId);
    const second = invoiceIssued(organizationId);
    const third = invoiceIssued(organizationId);
    // Not known yet: the webhook feed takes it in the hand-over's transaction, whose read fills the cache.
    await handOver(context as RequestContext, [encodeEnvelope(first)]);
    expect(await inboxRows(consumer, first)).toHaveLength(1);
    // Known now: no webhook feed, no inbox row; the stream's copy is acknowledged at once.
    await handOver(context as RequestContext, [encodeEnvelope(second)]);
    expect(await inboxRows(consumer, second)).toEqual([]);
    expect(await consume(consumer, second)).toBe('ignored');

    const { webhook } = await createWebhook(deps, context as RequestContext, {
      values: { endpoint: ENDPOINT, events: ['new_invoice'] },
      present: new Set(['endpoint', 'events']),
    });
    // Taken now: the hand-over delivers it with its inbox row, and the stream's copy is a no-op.
    await handOver(context as RequestContext, [encodeEnvelope(third)]);
    expect(await inboxRows(consumer, third)).toHaveLength(1);
    expect(await consume(consumer, third)).toBe('done before');
    expect(await deliveryRows(third)).toEqual([{ webhook_id: webhook.uuid, event_name: 'new_invoice' }]);
    expect(await deliveryRows(second)).toEqual([]);
  });

  it('nothing is skipped while the change notifications are not heard', async () => {
    const { organizationId } = await accounts.organization();
    const other = new EnabledWebhooks(60_000);
    // Stored before listening: not trusted.
    other.store(other.readStarted(), new Map([[organizationId, []]]));
    expect(other.takes(organizationId, 'new_invoice', null)).toBeNull();
    expect(ignoredByWebhooks({ enabledWebhooks: other })(invoiceIssued(organizationId), STORED_EARLIER)).toBe(false);
  });
});
