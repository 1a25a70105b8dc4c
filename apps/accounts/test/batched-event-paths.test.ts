/**
 * The batched paths of the events accounts consumes have exactly the effects of handling the same
 * events one by one (a failed batch is retried one by one, and the two paths meet in the inbox):
 * the durable consumers' batches (one transaction, one inbox insert, the handler's handleBatch, as
 * startConsumer runs them) and the producers' hand-over (ReadModelService.ApplyEvents' use case,
 * a whole list in one transaction). Each side runs on its own schema, copied from one set up
 * once, so the rows compare exactly, and the expected rows are asserted too.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { type EventEnvelope, encodeEnvelope, handleEventOnce, recordInboxRows } from '@billing/events';
import { createLogger, type RequestContext } from '@billing/observability';
import { paymentEventsV1, subscriptionEventsV1, subscriptionsV1 } from '@billing/proto';
import { TestClock } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelFeeds } from '../src/events/read-model-feeds.js';
import { subscriptionNoticeHandler, subscriptionNoticesHandler } from '../src/events/subscription-notices.js';
import { webhookConsumerName, webhookEventHandler, webhookEventsHandler } from '../src/events/webhook-consumers.js';
import { WEBHOOK_EVENT_MAP } from '../src/events/webhook-event-map.js';
import { webhookFeeds } from '../src/events/webhook-feeds.js';
import { applyReadModelEvents } from '../src/use-cases/apply-read-model-events.js';
import { createAccount } from '../src/use-cases/create-account.js';
import { HandedOverEvents } from '../src/use-cases/handed-over-events.js';
import { createOrganization } from '../src/use-cases/organizations.js';
import { createRecipient } from '../src/use-cases/recipients.js';
import { createWebhook } from '../src/use-cases/webhooks/manage-webhooks.js';
import type { WebhooksDeps } from '../src/use-cases/webhooks/webhooks-deps.js';
import { type AccountsSchema, copyRows, openAccountsSchema } from './support/accounts-schema.js';
import { draftLineChanged } from './support/draft-line-events.js';
import { invoiceChanged } from './support/invoice-events.js';
import { subscriptionChanged } from './support/subscription-events.js';
import { testWebhooksDeps } from './support/webhooks-deps.js';

const clock = new TestClock('2026-01-15T09:00:00Z');
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
const write = <T extends object>(values: T) => ({ values, present: new Set(Object.keys(values)) });

const webhooksDeps = (schema: AccountsSchema): WebhooksDeps =>
  testWebhooksDeps({ orm: schema.orm, pool: schema.pool, clock });

/** One consumer as startConsumer runs it: its name, its subject's events, handle and handleBatch. */
interface ConsumerUnderTest {
  consumer: string;
  takes: (envelope: EventEnvelope) => boolean;
  handle: (em: EntityManager, envelope: EventEnvelope) => Promise<void>;
  handleBatch: (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>;
}

/** Every durable consumer of accounts fed by another service's events, on `schema`. */
function durableConsumers(schema: AccountsSchema): ConsumerUnderTest[] {
  const byPayload = [...readModelFeeds({ orm: schema.orm, clock, logger }).entries()].map(([payloadType, feed]) => ({
    ...feed,
    takes: (envelope: EventEnvelope) => envelope.payload_type === payloadType,
  }));
  const deps = webhooksDeps(schema);
  const webhooks = WEBHOOK_EVENT_MAP.map((mapping) => ({
    consumer: webhookConsumerName(schema.schema, mapping),
    takes: (envelope: EventEnvelope) => envelope.event_type === mapping.eventType,
    handle: webhookEventHandler(deps),
    handleBatch: webhookEventsHandler(deps),
  }));
  const notices = {
    consumer: `${schema.schema}-subscription-notices`,
    takes: (envelope: EventEnvelope) => envelope.event_type === 'subscription.changed',
    handle: subscriptionNoticeHandler({ clock }),
    handleBatch: subscriptionNoticesHandler({ clock }),
  };
  return [...byPayload, ...webhooks, notices];
}

/** What the events left behind, with the schema's name out of the inbox keys and random ids dropped. */
async function rowsOf(schema: AccountsSchema) {
  const query = async (sql: string) => (await schema.pool.query(sql)).rows;
  const withoutId = (rows: Record<string, unknown>[]) => rows.map(({ id: _id, ...row }) => row);
  return {
    subscriptions: await query('select * from account_subscription order by id'),
    charges: await query('select * from account_charge order by id'),
    draftLines: await query('select * from account_draft_line order by id'),
    invoices: await query('select * from account_invoice order by id'),
    cards: await query('select * from account_payment_card order by id'),
    means: await query('select * from account_payment_means order by account_id'),
    deliveries: withoutId(await query('select * from webhook_delivery order by webhook_id, event_id')),
    notices: withoutId(await query('select * from subscription_notice_mail order by cause')),
    inbox: (await query('select consumer, message_id, processed_at from inbox order by consumer, message_id')).map(
      (row) => ({ ...row, consumer: String(row.consumer).replace(schema.schema, 'schema') }),
    ),
  };
}

let template: AccountsSchema;
const opened: AccountsSchema[] = [];
let orgA: { id: string; context: RequestContext; account: string; webhook: string };
let orgB: { id: string; context: RequestContext; account: string; webhook: string };

async function organization(withRecipient: boolean, events: string[]) {
  const deps = webhooksDeps(template);
  const { organization } = await createOrganization(deps, { name: 'Batched' });
  const context: RequestContext = { requestId: randomUUID(), organizationId: organization.id };
  const account = await createAccount(
    deps,
    context,
    write({
      code: 'acme',
      legal_address: 'Vesterbrogade 1',
      legal_zipcode: '1620',
      legal_city: 'København V',
      legal_country: 'DK',
    }),
  );
  if (withRecipient) {
    await createRecipient(
      deps,
      context,
      write({
        account: account.uuid,
        name: 'Ada',
        email: 'ada@example.com',
        receive_subscription_notifications: true,
      }),
    );
  }
  const { webhook } = await createWebhook(deps, context, write({ endpoint: 'http://127.0.0.1:9/hook', events }));
  return { id: organization.id, context, account: account.uuid, webhook: webhook.uuid };
}

/** A schema starting from the template's rows. */
async function copyOfTemplate(): Promise<AccountsSchema> {
  const schema = await openAccountsSchema(clock);
  opened.push(schema);
  await copyRows(template, schema);
  return schema;
}

beforeAll(async () => {
  template = await openAccountsSchema(clock);
  opened.push(template);
  // A takes the events of the sequence (and has a recipient of subscription notices); B has a
  // webhook too, but for an event not in the sequence: its events are never rendered.
  orgA = await organization(true, ['new_invoice', 'paid_invoice', 'cancel_subscription', 'payment_card.activated']);
  orgB = await organization(false, ['account.created']);
});

afterAll(async () => {
  for (const schema of opened) await schema.close();
});

function paymentCardChanged(organizationId: string, card: string, account: string, active: boolean, version: number) {
  const payload = paymentEventsV1.PaymentCardChanged.encode(
    paymentEventsV1.PaymentCardChanged.fromPartial({
      card: {
        uuid: card,
        account,
        active,
        brand: 'visa',
        card_number: '**** **** **** 4242',
        month: 12,
        year: 2030,
        name: 'Ada',
        payment_gateway: 'noop',
        payment_gateway_id: 'pm_1',
        created_date: new Date('2026-01-10T00:00:00Z'),
        version,
      },
    }),
  ).finish();
  return {
    event_id: randomUUID(),
    event_type: active ? 'payment_card.activated' : 'payment_card.deactivated',
    schema_version: 1,
    organization_id: organizationId,
    occurred_at: new Date('2026-01-15T09:00:00Z'),
    request_id: randomUUID(),
    aggregate_type: 'payment_card',
    aggregate_id: card,
    payload_type: 'billing.events.v1.PaymentCardChanged',
    payload: Buffer.from(payload),
  } satisfies EventEnvelope;
}

const [PLAN, PLAN_TERMS] = [randomUUID(), randomUUID()];

/**
 * The event with what a notice and the webhook data state of it (the test helper leaves them out):
 * the pricing, the subscription's terms and plan.
 */
function withPricing(envelope: EventEnvelope): EventEnvelope {
  const payload = subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload);
  payload.subscription = subscriptionsV1.Subscription.fromPartial({
    ...payload.subscription,
    terms: { uuid: PLAN_TERMS, plan: PLAN, code: 'gold-monthly', currency: 'DKK', interval_type: 'month' },
    plan: { uuid: PLAN, name: 'Gold', code: 'gold' },
  });
  const pricing = subscriptionEventsV1.SubscriptionPricing.fromPartial({
    quantity: 2,
    currency: 'DKK',
    interval_type: 'month',
    interval_count: 1,
    unit_price: '100.00',
    discounted_unit_price: '100.00',
  });
  const encoded = subscriptionEventsV1.SubscriptionChanged.encode({ ...payload, new_pricing: pricing }).finish();
  return { ...envelope, payload: Buffer.from(encoded) };
}

/**
 * A billing run's kinds of events of two organizations, interleaved: states out of version order,
 * a redelivery, an organization's event naming another's row, cancellations with charges, and
 * events a webhook of A takes while B's webhook takes none.
 */
function sequence() {
  const [subA, subB, invoiceA, invoiceB, lineA, cardA] = [
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
  ] as const;
  const [chargeA1, chargeA2, chargeB] = [randomUUID(), randomUUID(), randomUUID()] as const;
  const subscription = (
    org: typeof orgA,
    id: string,
    version: number,
    change: string,
    status = 'active',
    charges: string[] = [],
  ) =>
    withPricing(
      subscriptionChanged({
        organizationId: org.id,
        subscription: id,
        account: org.account,
        status,
        lastModified: `2026-01-15T10:0${version}:00Z`,
        version,
        change,
        charges,
      }),
    );
  const renewed = subscription(orgA, subA, 3, 'renewed');
  const events = [
    subscription(orgA, subA, 1, 'activated'),
    subscription(orgB, subB, 1, 'activated'),
    renewed,
    subscription(orgA, subA, 2, 'updated'),
    renewed,
    subscription(orgB, subA, 9, 'updated'),
    subscription(orgA, subA, 4, 'cancelled', 'expired', [chargeA1, chargeA2]),
    subscription(orgB, subB, 2, 'cancelled', 'expired', [chargeB, chargeA1]),
    invoiceChanged({
      organizationId: orgA.id,
      invoice: invoiceA,
      account: orgA.account,
      eventType: 'issued',
      status: 'open',
      balance: '125.00',
      version: 1,
    }),
    invoiceChanged({
      organizationId: orgA.id,
      invoice: invoiceA,
      account: orgA.account,
      eventType: 'paid',
      status: 'paid',
      balance: '0',
      version: 2,
    }),
    invoiceChanged({
      organizationId: orgA.id,
      invoice: invoiceA,
      account: orgA.account,
      eventType: 'issued',
      status: 'open',
      balance: '125.00',
      version: 1,
    }),
    invoiceChanged({
      organizationId: orgB.id,
      invoice: invoiceB,
      account: orgB.account,
      eventType: 'issued',
      status: 'open',
      balance: '80.00',
      version: 1,
    }),
    invoiceChanged({
      organizationId: orgB.id,
      invoice: invoiceA,
      account: orgB.account,
      eventType: 'paid',
      status: 'paid',
      balance: '0',
      version: 5,
    }),
    draftLineChanged({ organizationId: orgA.id, line: lineA, account: orgA.account, eventType: 'created', version: 1 }),
    draftLineChanged({
      organizationId: orgA.id,
      line: lineA,
      account: orgA.account,
      eventType: 'invoiced',
      version: 2,
    }),
    draftLineChanged({ organizationId: orgA.id, line: lineA, account: orgA.account, eventType: 'updated', version: 1 }),
    draftLineChanged({ organizationId: orgB.id, line: lineA, account: orgB.account, eventType: 'deleted', version: 7 }),
    paymentCardChanged(orgA.id, cardA, orgA.account, true, 1),
    paymentCardChanged(orgA.id, cardA, orgA.account, false, 2),
    paymentCardChanged(orgA.id, cardA, orgA.account, true, 1),
  ];
  return { events, ids: { subA, subB, invoiceA, invoiceB, lineA, cardA, chargeA1, chargeA2, chargeB } };
}

/** The rows the sequence must leave, whichever path it took (the values that matter, exactly). */
function expectSequenceRows(rows: Awaited<ReturnType<typeof rowsOf>>, run: ReturnType<typeof sequence>) {
  const { ids } = run;
  const snapshotOf = (event: EventEnvelope) =>
    Buffer.from(
      // The stored snapshot is the event's Subscription re-encoded.
      subscriptionsV1.Subscription.encode(
        subscriptionEventsV1.SubscriptionChanged.decode(event.payload).subscription!,
      ).finish(),
    );
  const byAggregate = (id: string, version: number) =>
    run.events.find(
      (event) =>
        event.aggregate_id === id &&
        event.event_type === 'subscription.changed' &&
        subscriptionEventsV1.SubscriptionChanged.decode(event.payload).subscription!.version === version,
    )!;
  expect(rows.subscriptions.map((row) => [row.id, row.organization_id, row.status, row.version])).toEqual(
    [
      [ids.subA, orgA.id, 'expired', 4],
      [ids.subB, orgB.id, 'expired', 2],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
  for (const [id, version] of [
    [ids.subA, 4],
    [ids.subB, 2],
  ] as const) {
    expect(rows.subscriptions.find((row) => row.id === id)!.snapshot).toEqual(snapshotOf(byAggregate(id, version)));
  }
  // The first naming of a charge keeps it (B's naming of A's charge finds it there).
  expect(
    rows.charges
      .map((row) => [row.id, row.organization_id, row.subscription_id])
      .sort((a, b) => a[0]!.localeCompare(b[0]!)),
  ).toEqual(
    [
      [ids.chargeA1, orgA.id, ids.subA],
      [ids.chargeA2, orgA.id, ids.subA],
      [ids.chargeB, orgB.id, ids.subB],
    ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
  );
  expect(rows.invoices.map((row) => [row.id, row.organization_id, row.status, row.balance, row.version])).toEqual(
    [
      [ids.invoiceA, orgA.id, 'paid', '0.000000', 2],
      [ids.invoiceB, orgB.id, 'open', '80.000000', 1],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
  expect(rows.draftLines.map((row) => [row.id, row.organization_id, row.version, row.removed])).toEqual([
    [ids.lineA, orgA.id, 2, true],
  ]);
  expect(rows.cards.map((row) => [row.id, row.organization_id, row.active, row.version])).toEqual([
    [ids.cardA, orgA.id, false, 2],
  ]);
  expect(rows.means.map((row) => [row.account_id, row.has_active_payment_card])).toEqual([[orgA.account, false]]);
}

/** The deliveries and notices the durable consumers make of the sequence (the hand-over makes the deliveries only). */
function expectDeliveries(rows: Awaited<ReturnType<typeof rowsOf>>, run: ReturnType<typeof sequence>) {
  const taken = run.events.filter(
    (event) =>
      event.organization_id === orgA.id &&
      (event.event_type.startsWith('invoice.') ||
        event.event_type === 'payment_card.activated' ||
        (event.event_type === 'subscription.changed' &&
          subscriptionEventsV1.SubscriptionChanged.decode(event.payload).change === 'cancelled')),
  );
  expect(rows.deliveries.map((row) => [row.webhook_id, row.event_id, row.status, row.created_at])).toEqual(
    taken
      .map((event) => [orgA.webhook, event.event_id, 'pending', clock.now()])
      .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
  );
  const names = new Map(rows.deliveries.map((row) => [row.event_id, JSON.parse(String(row.payload)).event]));
  expect(taken.map((event) => names.get(event.event_id))).toEqual([
    'cancel_subscription',
    'new_invoice',
    'paid_invoice',
    'new_invoice',
    'payment_card.activated',
    'payment_card.activated',
  ]);
}

describe('the durable consumers', () => {
  it('handle a batch with exactly the effects of its events one by one', async () => {
    const [oneByOne, batched] = [await copyOfTemplate(), await copyOfTemplate()];
    const run = sequence();

    for (const consumer of durableConsumers(oneByOne)) {
      for (const event of run.events.filter(consumer.takes)) {
        await handleEventOnce({ orm: oneByOne.orm, consumer: consumer.consumer, clock }, event, consumer.handle);
      }
    }
    // As startConsumer's batch: one transaction, the inbox rows by one statement, the new events to handleBatch.
    for (const consumer of durableConsumers(batched)) {
      const events = run.events.filter(consumer.takes);
      await inTransaction(batched.orm, async (em) => {
        const fresh = await recordInboxRows(
          em,
          events.map((envelope) => ({ consumer: consumer.consumer, envelope })),
          clock,
        );
        if (fresh.length > 0)
          await consumer.handleBatch(
            em,
            fresh.map(({ envelope }) => envelope),
          );
      });
    }

    const [expected, actual] = [await rowsOf(oneByOne), await rowsOf(batched)];
    expect(actual).toEqual(expected);
    expectSequenceRows(actual, run);
    expectDeliveries(actual, run);
    // A's activation and cancellation are mailed to its recipient; B's account has none.
    expect(
      actual.notices
        .map((row) => [row.organization_id, row.subscription_id, row.kind, row.recipients])
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    ).toEqual([
      [orgA.id, run.ids.subA, 'cancelled', [{ email: 'ada@example.com', name: 'Ada' }]],
      [orgA.id, run.ids.subA, 'started', [{ email: 'ada@example.com', name: 'Ada' }]],
    ]);
    // Every event once per consumer taking it (the redelivered renewal once).
    expect(actual.inbox).toHaveLength(
      durableConsumers(batched).reduce(
        (count, consumer) => count + new Set(run.events.filter(consumer.takes).map((event) => event.event_id)).size,
        0,
      ),
    );
  });
});

describe('the hand-over (ReadModelService.ApplyEvents)', () => {
  it('applies a list in one go with exactly the effects of its events one by one, under the same inbox names', async () => {
    const [oneByOne, handedOver] = [await copyOfTemplate(), await copyOfTemplate()];
    const run = sequence();

    // One by one, as before: each event to its read model's handler, then to its webhook feed.
    const feeds = readModelFeeds({ orm: oneByOne.orm, clock, logger });
    const more = webhookFeeds(webhooksDeps(oneByOne));
    let appliedOneByOne = 0;
    for (const event of run.events) {
      const feed = feeds.get(event.payload_type)!;
      if (await handleEventOnce({ orm: oneByOne.orm, consumer: feed.consumer, clock }, event, feed.handle)) {
        appliedOneByOne += 1;
      }
      for (const extra of more(event)) {
        await handleEventOnce({ orm: oneByOne.orm, consumer: extra.consumer, clock }, event, extra.handle);
      }
    }

    // Handed over as producers do: each organization's consecutive events in one call.
    const apply = applyReadModelEvents({ orm: handedOver.orm, clock, logger }, webhookFeeds(webhooksDeps(handedOver)));
    let applied = 0;
    for (let start = 0; start < run.events.length; ) {
      const organizationId = run.events[start]!.organization_id;
      let end = start;
      while (end < run.events.length && run.events[end]!.organization_id === organizationId) end++;
      const context = { requestId: randomUUID(), organizationId };
      applied += await apply(context, run.events.slice(start, end).map(encodeEnvelope));
      start = end;
    }

    const [expected, actual] = [await rowsOf(oneByOne), await rowsOf(handedOver)];
    expect(actual).toEqual(expected);
    expect(applied).toBe(appliedOneByOne);
    // Every event but the redelivered renewal reached its read model.
    expect(applied).toBe(run.events.length - 1);
    expectSequenceRows(actual, run);
    expectDeliveries(actual, run);
    expect(actual.notices).toEqual([]);
  });

  it("names every inbox row it committed, once, so that the stream's copies are acknowledged without a transaction", async () => {
    const schema = await copyOfTemplate();
    const run = sequence();
    const handedOver = new HandedOverEvents();
    const apply = applyReadModelEvents(
      { orm: schema.orm, clock, logger, handedOver },
      webhookFeeds(webhooksDeps(schema)),
    );
    const own = run.events.filter((event) => event.organization_id === orgA.id);
    await apply({ requestId: randomUUID(), organizationId: orgA.id }, own.map(encodeEnvelope));
    const rows = await schema.pool.query<{ consumer: string; message_id: string }>(
      'select consumer, message_id from inbox order by consumer, message_id',
    );
    expect(rows.rows.length).toBeGreaterThan(own.length);
    // Exactly the rows now in the inbox (this schema's only rows), each named once.
    for (const row of rows.rows) expect(handedOver.takeDone(row.consumer, row.message_id)).toBe(true);
    for (const row of rows.rows) expect(handedOver.takeDone(row.consumer, row.message_id)).toBe(false);
    const consumers = new Set(durableConsumers(schema).map((consumer) => consumer.consumer));
    for (const event of run.events.filter((candidate) => candidate.organization_id !== orgA.id)) {
      for (const consumer of consumers) expect(handedOver.takeDone(consumer, event.event_id)).toBe(false);
    }
  });

  it('sends a list again and finds it all done', async () => {
    const schema = await copyOfTemplate();
    const run = sequence();
    const apply = applyReadModelEvents({ orm: schema.orm, clock, logger }, webhookFeeds(webhooksDeps(schema)));
    const own = run.events.filter((event) => event.organization_id === orgA.id).map(encodeEnvelope);
    const context = { requestId: randomUUID(), organizationId: orgA.id };
    expect(await apply(context, own)).toBe(own.length - 1);
    const before = await rowsOf(schema);
    expect(await apply(context, own)).toBe(0);
    expect(await rowsOf(schema)).toEqual(before);
  });
});
