/**
 * The account read model as account reads serve it, fed by both delivery paths at once:
 * ReadModelService.ApplyEvents over real gRPC (the producers' read-your-writes shortcut) and the
 * durable JetStream consumers (on throwaway producer streams, under the consumer names of this
 * schema, as in production), against a real, migrated schema.
 */
import { randomUUID } from 'node:crypto';
import { isAppError, StatusCode } from '@billing/errors';
import {
  decodeEnvelope,
  type EventEnvelope,
  encodeEnvelope,
  InboxMessage,
  JetStreamBus,
  OutboxMessage,
  subjectFor,
} from '@billing/events';
import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { createLogger, type RequestContext } from '@billing/observability';
import { accountEventsV1, accountsV1, subscriptionEventsV1, type subscriptionsV1 } from '@billing/proto';
import { type RunningService, startService } from '@billing/runtime';
import { createTestSchema, TestClock, type TestSchema, testNatsUrl, uniqueName, waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDraftLineState } from '../src/db/account-draft-line-store.js';
import { findSubscriptionState } from '../src/db/account-subscription-store.js';
import {
  draftLineChangesConsumerName,
  startDraftLineChangesConsumer,
} from '../src/events/draft-line-changes-consumer.js';
import {
  startSubscriptionChangesConsumer,
  subscriptionChangesConsumerName,
} from '../src/events/subscription-changes-consumer.js';
import { accountsModule } from '../src/service.js';
import { createOrganization } from '../src/use-cases/organizations.js';
import { type DraftLineEventInput, draftLine, draftLineChanged } from './support/draft-line-events.js';
import { type SubscriptionEventInput, subscriptionChanged } from './support/subscription-events.js';

const clock = new TestClock('2026-01-15T09:00:00Z');
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
const subscriptionsProducer = uniqueName('subscriptions_t');
const invoicingProducer = uniqueName('invoicing_t');
let database: TestSchema;
let service: RunningService;
let bus: JetStreamBus;
let stopConsumers: () => Promise<void>;
let readModel: GrpcClient<typeof accountsV1.ReadModelServiceService>;
let accounts: GrpcClient<typeof accountsV1.AccountsServiceService>;

beforeAll(async () => {
  database = await createTestSchema('accounts');
  // No bus for the service itself: the consumers below read throwaway streams under its names.
  service = await startService(accountsModule, {
    databaseUrl: database.databaseUrl,
    schema: database.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger,
    bus: null,
    migrateOnStart: true,
  });
  bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'accounts-read-model-service-test' });
  const common = { orm: service.orm, bus, clock, logger, retryDelayMs: () => 200 };
  const consumers = [
    await startSubscriptionChangesConsumer({
      ...common,
      consumer: subscriptionChangesConsumerName(database.schema),
      producer: subscriptionsProducer,
    }),
    await startDraftLineChangesConsumer({
      ...common,
      consumer: draftLineChangesConsumerName(database.schema),
      producer: invoicingProducer,
    }),
  ];
  stopConsumers = async () => {
    for (const consumer of consumers) await consumer.stop();
  };
  readModel = createGrpcClient(accountsV1.ReadModelServiceClient, service.address);
  accounts = createGrpcClient(accountsV1.AccountsServiceClient, service.address);
});

afterAll(async () => {
  readModel?.close();
  accounts?.close();
  await stopConsumers?.();
  await bus?.close();
  await service?.stop();
  await database?.drop();
});

async function organization() {
  const { organization } = await createOrganization({ orm: service.orm, clock }, { name: 'Read model' });
  const context: RequestContext = { requestId: randomUUID(), organizationId: organization.id };
  return {
    organizationId: organization.id,
    context,
    subscription: (input: Omit<SubscriptionEventInput, 'organizationId'>) =>
      subscriptionChanged({ organizationId: organization.id, ...input }),
    line: (input: Omit<DraftLineEventInput, 'organizationId'>) =>
      draftLineChanged({ organizationId: organization.id, ...input }),
  };
}

async function newAccount(context: RequestContext, code: string): Promise<accountsV1.Account> {
  const input = { code, legal_address: 'Vesterbrogade 1', legal_zipcode: '1620', legal_city: 'København V' };
  const account = { ...input, legal_country: 'DK' };
  clock.advanceMs(1_000);
  const reply = await accounts.call('createAccount', { account, present_fields: Object.keys(account) }, { context });
  return reply.account!;
}

const apply = (context: RequestContext, ...events: EventEnvelope[]) =>
  readModel.call('applyEvents', { envelopes: events.map((event) => Buffer.from(encodeEnvelope(event))) }, { context });

const getAccount = async (context: RequestContext, code: string) =>
  (await accounts.call('getAccount', { code }, { context })).account!;

const lineUuids = async (context: RequestContext, code: string) =>
  (await getAccount(context, code)).draft_lines.map((line) => line.uuid);

/** The subscription an event carries, as account reads must return it. */
const carried = (event: EventEnvelope): subscriptionsV1.Subscription =>
  subscriptionEventsV1.SubscriptionChanged.decode(event.payload).subscription!;

/** Which consumers' inbox rows name the event. */
const inboxOf = async (event: EventEnvelope) =>
  (await service.orm.em.fork().find(InboxMessage, { messageId: event.event_id })).map((row) => row.consumer);

/** Publishes on the throwaway stream of the event's producer, under a bus message id. */
const publish = (event: EventEnvelope, messageId = event.event_id) => {
  const producer = event.event_type === 'subscription.changed' ? subscriptionsProducer : invoicingProducer;
  return bus.publish({ subject: subjectFor(producer, event.event_type), messageId, data: encodeEnvelope(event) });
};

/** Publishes each event and waits until the durable consumer of its kind committed it. */
const deliver = async (...events: EventEnvelope[]) => {
  for (const event of events) {
    const consumer =
      event.event_type === 'subscription.changed'
        ? subscriptionChangesConsumerName(database.schema)
        : draftLineChangesConsumerName(database.schema);
    await publish(event);
    await waitFor(async () => (await inboxOf(event)).includes(consumer), {
      timeoutMs: 10_000,
      description: `event ${event.event_id} handled by ${consumer}`,
    });
  }
};

const sortedUuids = () => [randomUUID(), randomUUID()].sort() as [string, string];

describe('account reads embed the read model', () => {
  it('GetAccount, ListAccounts and UpdateAccount return the subscriptions and open draft lines, oldest first', async () => {
    const org = await organization();
    const intruder = await organization();
    const acme = await newAccount(org.context, 'acme');
    const other = await newAccount(org.context, 'other');
    const [tiedFirst, tiedSecond] = sortedUuids();
    const late = org.subscription({
      subscription: randomUUID(),
      account: acme.uuid,
      status: 'active',
      lastModified: '2026-01-20T00:00:00Z',
      created: '2026-01-20T00:00:00Z',
      version: 1,
    });
    const early = org.subscription({
      subscription: randomUUID(),
      account: acme.uuid,
      status: 'not_renewing',
      lastModified: '2026-01-12T00:00:00Z',
      created: '2026-01-10T00:00:00Z',
      version: 2,
    });
    // Same creation instant: ordered by uuid.
    const tied = [tiedSecond, tiedFirst].map((subscription) =>
      org.subscription({
        subscription,
        account: acme.uuid,
        status: 'active',
        lastModified: '2026-01-15T00:00:00Z',
        created: '2026-01-15T00:00:00Z',
        version: 1,
      }),
    );
    const othersSubscription = org.subscription({
      subscription: randomUUID(),
      account: other.uuid,
      status: 'active',
      lastModified: '2026-01-16T00:00:00Z',
      version: 1,
    });
    // Another organization's events naming acme's uuid are stored under that organization only.
    const foreign = intruder.subscription({
      subscription: randomUUID(),
      account: acme.uuid,
      status: 'active',
      lastModified: '2026-01-01T00:00:00Z',
      created: '2026-01-01T00:00:00Z',
      version: 1,
    });
    const [lineA, lineB, invoicedLine] = [randomUUID(), randomUUID(), randomUUID()];
    const lines = {
      second: { line: lineA, account: acme.uuid, eventType: 'updated', version: 2, created: '2026-02-02T00:00:00Z' },
      first: { line: lineB, account: acme.uuid, eventType: 'created', version: 1, created: '2026-02-01T00:00:00Z' },
      invoiced: {
        line: invoicedLine,
        account: acme.uuid,
        eventType: 'invoiced',
        version: 2,
        created: '2026-01-01T00:00:00Z',
      },
    } as const;

    expect(
      await apply(
        org.context,
        late,
        early,
        ...tied,
        othersSubscription,
        org.line(lines.second),
        org.line(lines.first),
        org.line(lines.invoiced),
      ),
    ).toEqual({ applied: 8 });
    expect(await apply(intruder.context, foreign)).toEqual({ applied: 1 });

    const subscriptions = [early, tied[1]!, tied[0]!, late].map(carried);
    const draftLines = [
      draftLine({ organizationId: org.organizationId, ...lines.first }),
      draftLine({ organizationId: org.organizationId, ...lines.second }),
    ];

    const read = await getAccount(org.context, 'acme');
    expect(read.subscriptions).toEqual(subscriptions);
    expect(read.draft_lines).toEqual(draftLines);
    expect(read.subscriptions.map((subscription) => subscription.version)).toEqual([2, 1, 1, 1]);
    expect(await getAccount(org.context, 'other')).toMatchObject({
      subscriptions: [carried(othersSubscription)],
      draft_lines: [],
    });

    const page = await accounts.call(
      'listAccounts',
      { filter: {}, page: { page: 1, page_size: 10, ordering: 'code' } },
      { context: org.context },
    );
    expect(page.accounts.map((account) => [account.code, account.subscriptions, account.draft_lines])).toEqual([
      ['acme', subscriptions, draftLines],
      ['other', [carried(othersSubscription)], []],
    ]);

    const patch = { invoice_note: 'Thanks' };
    const updated = await accounts.call(
      'updateAccount',
      { code: 'acme', account: patch, present_fields: Object.keys(patch), replace: false },
      { context: org.context },
    );
    expect(updated.account).toMatchObject({ invoice_note: 'Thanks', subscriptions, draft_lines: draftLines });

    // The account.updated event keeps them out: they are other services' data.
    const outbox = await service.orm.em.fork().find(OutboxMessage, { subject: 'accounts.account.updated' });
    const events = outbox
      .map((row) => decodeEnvelope(row.payload))
      .filter((envelope) => envelope.aggregate_id === acme.uuid)
      .map((envelope) => accountEventsV1.AccountChanged.decode(envelope.payload).account!);
    expect(events.map((account) => [account.invoice_note, account.subscriptions, account.draft_lines])).toEqual([
      ['Thanks', [], []],
    ]);
  });

  it('a new account reads with empty sets', async () => {
    const org = await organization();
    const created = await newAccount(org.context, 'fresh');
    expect([created.subscriptions, created.draft_lines]).toEqual([[], []]);
    expect(await getAccount(org.context, 'fresh')).toMatchObject({ subscriptions: [], draft_lines: [] });
  });
});

describe('ReadModelService.ApplyEvents', () => {
  it('applies an event once; the same event arriving on JetStream afterwards finds it done', async () => {
    const org = await organization();
    const account = await newAccount(org.context, 'direct');
    const created = org.subscription({
      subscription: randomUUID(),
      account: account.uuid,
      status: 'active',
      lastModified: '2026-01-15T10:00:00Z',
      version: 1,
    });

    expect(await apply(org.context, created)).toEqual({ applied: 1 });
    // Read-your-writes: visible before the stream delivered anything.
    expect((await getAccount(org.context, 'direct')).subscriptions).toEqual([carried(created)]);
    expect(await apply(org.context, created)).toEqual({ applied: 0 });

    // JetStream delivers it too (under a new bus id, past any duplicate window); a later event,
    // handled after it in stream order, shows the consumer went past it.
    await publish(created, randomUUID());
    await deliver(
      org.subscription({
        subscription: randomUUID(),
        account: account.uuid,
        status: 'active',
        lastModified: '2026-01-15T10:00:00Z',
        version: 1,
      }),
    );
    // One inbox row, under the durable consumer's name: both paths share it.
    expect(await inboxOf(created)).toEqual([subscriptionChangesConsumerName(database.schema)]);
    expect(await findSubscriptionState(service.orm.em.fork(), org.organizationId, created.aggregate_id)).toMatchObject({
      version: 1,
      status: 'active',
    });
  });

  it('applies nothing of an event the stream delivered first', async () => {
    const org = await organization();
    const account = await newAccount(org.context, 'streamed');
    const line = randomUUID();
    const created = org.line({ line, account: account.uuid, eventType: 'created', version: 1 });
    const invoiced = org.line({ line, account: account.uuid, eventType: 'invoiced', version: 2 });

    await deliver(created);
    expect(await lineUuids(org.context, 'streamed')).toEqual([line]);
    expect(await apply(org.context, created)).toEqual({ applied: 0 });

    await deliver(invoiced);
    expect(await lineUuids(org.context, 'streamed')).toEqual([]);
    expect(await apply(org.context, created, invoiced)).toEqual({ applied: 0 });
    expect(await inboxOf(invoiced)).toEqual([draftLineChangesConsumerName(database.schema)]);
  });

  it("refuses a batch holding another organization's envelope and applies none of it", async () => {
    const org = await organization();
    const stranger = await organization();
    const account = await newAccount(org.context, 'guarded');
    const own = org.line({ line: randomUUID(), account: account.uuid, eventType: 'created', version: 1 });
    const foreign = stranger.line({ line: randomUUID(), account: account.uuid, eventType: 'created', version: 1 });

    const failure = await apply(org.context, own, foreign).catch((error: unknown) => error);

    expect(
      isAppError(failure) && {
        code: failure.code,
        reason: failure.reason,
        fieldViolations: failure.fieldViolations,
      },
    ).toEqual({
      code: StatusCode.INVALID_ARGUMENT,
      reason: 'VALIDATION_FAILED',
      fieldViolations: [
        {
          field: 'envelopes',
          description: `envelopes[1] (event ${foreign.event_id}) is not an event of the calling organization.`,
        },
      ],
    });
    expect(await inboxOf(own)).toEqual([]);
    expect(await inboxOf(foreign)).toEqual([]);
    expect(await lineUuids(org.context, 'guarded')).toEqual([]);
  });

  it('ignores events no read model here reads', async () => {
    const org = await organization();
    const unread: EventEnvelope = {
      ...org.subscription({
        subscription: randomUUID(),
        account: randomUUID(),
        status: 'active',
        lastModified: '2026-01-15T10:00:00Z',
        version: 1,
      }),
      event_type: 'plan.created',
      payload_type: 'billing.events.v1.PlanChanged',
    };
    expect(await apply(org.context, unread)).toEqual({ applied: 0 });
    expect(await inboxOf(unread)).toEqual([]);
  });

  it('refuses an event it cannot use, naming it', async () => {
    const org = await organization();
    const unusable = org.line({ line: randomUUID(), account: 'acme', eventType: 'created', version: 1 });
    const failure = await apply(org.context, unusable).catch((error: unknown) => error);
    expect(isAppError(failure) && [failure.code, failure.fieldViolations]).toEqual([
      StatusCode.INVALID_ARGUMENT,
      [
        {
          field: 'envelopes',
          description: `envelopes[0]: Unusable draft line ${unusable.aggregate_id}: account "acme" is not a uuid`,
        },
      ],
    ]);
    expect(await inboxOf(unusable)).toEqual([]);
  });
});

describe('draft lines in the read model', () => {
  it('a line leaves its account when invoiced or deleted, and late older states do not bring it back', async () => {
    const org = await organization();
    const account = await newAccount(org.context, 'lines');
    const [invoiced, deletedFirst, deletedAtSameVersion] = [randomUUID(), randomUUID(), randomUUID()];
    const event = (line: string, eventType: DraftLineEventInput['eventType'], version: number, description?: string) =>
      org.line({ line, account: account.uuid, eventType, version, ...(description ? { description } : {}) });
    const stateOf = async (line: string) => {
      const row = await findDraftLineState(service.orm.em.fork(), org.organizationId, line);
      return row && { version: row.version, removed: row.removed };
    };

    // Created, then updated: the newer state is served.
    await apply(org.context, event(invoiced, 'created', 1), event(invoiced, 'updated', 2, 'Consulting, February'));
    expect((await getAccount(org.context, 'lines')).draft_lines.map((line) => [line.uuid, line.description])).toEqual([
      [invoiced, 'Consulting, February'],
    ]);

    // Invoiced: gone. The update of version 2, delivered late by the stream, does not bring it back.
    expect(await apply(org.context, event(invoiced, 'invoiced', 3))).toEqual({ applied: 1 });
    await deliver(event(invoiced, 'updated', 2));
    expect(await lineUuids(org.context, 'lines')).toEqual([]);
    expect(await stateOf(invoiced)).toEqual({ version: 3, removed: true });

    // Deleted before its creation arrived (the direct hand-over of the creation failed): the
    // deletion leaves a tombstone, and the creation arriving late on the stream finds it.
    await apply(org.context, event(deletedFirst, 'deleted', 1));
    await deliver(event(deletedFirst, 'created', 1));
    expect(await lineUuids(org.context, 'lines')).toEqual([]);
    expect(await stateOf(deletedFirst)).toEqual({ version: 1, removed: true });

    // A deletion carrying the line's last state (same version) still removes it.
    await apply(org.context, event(deletedAtSameVersion, 'created', 1));
    expect(await lineUuids(org.context, 'lines')).toEqual([deletedAtSameVersion]);
    await apply(org.context, event(deletedAtSameVersion, 'deleted', 1));
    expect(await lineUuids(org.context, 'lines')).toEqual([]);
    expect(await stateOf(deletedAtSameVersion)).toEqual({ version: 1, removed: true });
  });

  it('ignores an older or equal version of a listed line', async () => {
    const org = await organization();
    const account = await newAccount(org.context, 'versions');
    const line = randomUUID();
    const event = (version: number, description: string) =>
      org.line({ line, account: account.uuid, eventType: 'updated', version, description });

    await apply(org.context, event(3, 'third'), event(2, 'second'), event(3, 'third again'));
    expect((await getAccount(org.context, 'versions')).draft_lines.map((l) => [l.version, l.description])).toEqual([
      [3, 'third'],
    ]);
  });

  it("never lets another organization's event touch a line", async () => {
    const owner = await organization();
    const intruder = await organization();
    const account = await newAccount(owner.context, 'owned-lines');
    const line = randomUUID();

    await apply(owner.context, owner.line({ line, account: account.uuid, eventType: 'created', version: 1 }));
    // Handled (its inbox row says so) but without effect: the line's row belongs to the owner.
    expect(
      await apply(intruder.context, intruder.line({ line, account: account.uuid, eventType: 'deleted', version: 5 })),
    ).toEqual({ applied: 1 });

    expect(await lineUuids(owner.context, 'owned-lines')).toEqual([line]);
    expect(await findDraftLineState(service.orm.em.fork(), intruder.organizationId, line)).toBeNull();
  });
});
