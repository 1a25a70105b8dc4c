import { executeBound, inTransaction } from '@billing/db';
import { TestClock, uniqueName, waitFor } from '@billing/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeEnvelope,
  type EventBus,
  InProcessBus,
  insertOutboxRecords,
  OutboxMessage,
  OutboxRelay,
  outboxInsert,
  outboxRecord,
  type PublishRequest,
} from '../src/index.js';
import { appendEvent } from './support/append-event.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
let table: string;
beforeAll(async () => {
  db = await openMigratedTestOrm('events_relay');
  table = `"${db.orm.config.get('schema')}"."outbox"`;
});
afterAll(async () => db?.dispose());
afterEach(async () => {
  await db.orm.em.fork().nativeDelete(OutboxMessage, {});
});

/** An in-process bus that records every publish call and can be told to fail. */
class RecordingBus extends InProcessBus {
  readonly published: PublishRequest[] = [];
  /** Every publish call, also the failed ones, in call order. */
  readonly attempted: PublishRequest[] = [];
  failWith: Error | undefined;
  /** Fails only the publish of this message id. */
  failOn: { messageId: string; error: Error } | undefined;

  override async publish(request: PublishRequest): Promise<void> {
    this.attempted.push(request);
    if (this.failWith) throw this.failWith;
    if (this.failOn?.messageId === request.messageId) throw this.failOn.error;
    await new Promise((resolve) => setImmediate(resolve));
    await super.publish(request);
    this.published.push(request);
  }
}

function relayFor(bus: EventBus, producer: string, clock = new TestClock(), batchSize = 100): OutboxRelay {
  return new OutboxRelay({
    orm: db.orm,
    bus,
    producer,
    logger: recordingLogger(),
    clock,
    batchSize,
    pollIntervalMs: 50,
  });
}

/** `count` account.created outbox records of `producer`, for insertOutboxRecords. */
function accountCreatedRecords(producer: string, count: number) {
  return Array.from({ length: count }, (_, index) =>
    outboxRecord({
      producer,
      eventType: 'account.created',
      organizationId: 'org-1',
      aggregateType: 'account',
      aggregateId: `account-${index}`,
      payloadType: 'billing.events.v1.AccountChanged',
      payload: new TextEncoder().encode(`payload ${index}`),
      occurredAt: new Date('2026-01-01T00:00:00Z'),
    }),
  );
}

/**
 * Runs `test` beside a relay of a new producer that polls once a minute, started and its first
 * (empty) poll done: within a test, only a wake can make it publish.
 */
async function withSleepingRelay(test: (relay: { producer: string; bus: RecordingBus }) => Promise<void>) {
  const producer = uniqueName('relay');
  const bus = new RecordingBus();
  const relay = new OutboxRelay({ orm: db.orm, bus, producer, logger: recordingLogger(), pollIntervalMs: 60_000 });
  relay.start();
  try {
    await waitFor(() => bus.published.length === 0, { description: 'the first (empty) poll' });
    await test({ producer, bus });
  } finally {
    await relay.stop();
  }
}

describe('OutboxRelay', () => {
  it('publishes committed rows oldest first with the event id as message id, then marks them', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const clock = new TestClock('2026-05-01T10:00:00Z');
    const first = await appendEvent(db.orm, producer, 'account.created');
    const second = await appendEvent(db.orm, producer, 'account.updated');
    const third = await appendEvent(db.orm, producer, 'account.deleted');

    const result = await relayFor(bus, producer, clock, 2).drainOnce();

    expect(result).toEqual({ published: 3 });
    expect(bus.published.map((request) => [request.messageId, request.subject])).toEqual([
      [first.event_id, `${producer}.account.created`],
      [second.event_id, `${producer}.account.updated`],
      [third.event_id, `${producer}.account.deleted`],
    ]);
    expect(decodeEnvelope(bus.published[0]!.data).event_id).toBe(first.event_id);
    const rows = await db.orm.em.fork().find(OutboxMessage, {});
    expect(rows.map((row) => row.publishedAt?.toISOString())).toEqual(Array(3).fill('2026-05-01T10:00:00.000Z'));
    expect(await relayFor(bus, producer).drainOnce()).toEqual({ published: 0 });
  });

  it('records a failed publish on the row, keeps it pending and publishes it once the bus is back', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const relay = relayFor(bus, producer);
    const event = await appendEvent(db.orm, producer);
    bus.failWith = new Error('no responders');

    const failed = await relay.drainOnce();

    expect(failed.published).toBe(0);
    expect(failed.error).toBe(bus.failWith);
    const pending = await db.orm.em.fork().findOneOrFail(OutboxMessage, event.event_id);
    expect(pending).toMatchObject({ publishedAt: null, attempts: 1, lastError: 'Error: no responders' });

    bus.failWith = undefined;
    expect(await relay.drainOnce()).toEqual({ published: 1 });
    expect(bus.published.map((request) => request.messageId)).toEqual([event.event_id]);
  });

  it('sends a batch without waiting for each ack, each row naming the one before it', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const rows = [await appendEvent(db.orm, producer), await appendEvent(db.orm, producer)];
    rows.push(await appendEvent(db.orm, producer));
    let inFlight = 0;
    let mostInFlight = 0;
    const publish = bus.publish.bind(bus);
    bus.publish = async (request) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        await publish(request);
      } finally {
        inFlight -= 1;
      }
    };

    expect(await relayFor(bus, producer).drainOnce()).toEqual({ published: 3 });

    expect(mostInFlight).toBe(3);
    expect(bus.published.map(({ messageId, previousMessageId }) => [messageId, previousMessageId])).toEqual([
      [rows[0]!.event_id, undefined],
      [rows[1]!.event_id, rows[0]!.event_id],
      [rows[2]!.event_id, rows[1]!.event_id],
    ]);
  });

  it('when a row in the middle of a batch fails, marks the ones before it, records the failure on it and leaves it and the later ones pending', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const clock = new TestClock('2026-05-01T10:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await appendEvent(db.orm, producer)).event_id);
    const error = new Error('insufficient resources');
    bus.failOn = { messageId: ids[1]!, error };

    const failed = await relayFor(bus, producer, clock).drainOnce();

    expect(failed).toEqual({ published: 1, error });
    // The bus stored none after the failed row: each later one names its predecessor, which it does not have.
    expect(bus.published.map((request) => request.messageId)).toEqual([ids[0]]);
    const rowsOf = async () =>
      (await db.orm.em.fork().find(OutboxMessage, { id: { $in: ids } }, { orderBy: { position: 'asc' } })).map(
        (row) => ({
          id: row.id,
          publishedAt: row.publishedAt?.toISOString() ?? null,
          attempts: row.attempts,
          lastError: row.lastError,
        }),
      );
    expect(await rowsOf()).toEqual([
      { id: ids[0], publishedAt: '2026-05-01T10:00:00.000Z', attempts: 0, lastError: null },
      { id: ids[1], publishedAt: null, attempts: 1, lastError: 'Error: insufficient resources' },
      { id: ids[2], publishedAt: null, attempts: 0, lastError: null },
      { id: ids[3], publishedAt: null, attempts: 0, lastError: null },
    ]);

    bus.failOn = undefined;
    expect(await relayFor(bus, producer, clock).drainOnce()).toEqual({ published: 3 });
    expect(bus.published.map((request) => request.messageId)).toEqual(ids);
    expect((await rowsOf()).map(({ publishedAt, attempts }) => [publishedAt, attempts])).toEqual([
      ['2026-05-01T10:00:00.000Z', 0],
      ['2026-05-01T10:00:00.000Z', 1],
      ['2026-05-01T10:00:00.000Z', 0],
      ['2026-05-01T10:00:00.000Z', 0],
    ]);
  });

  it('takes turns with other replicas: while one publishes, another publishes nothing', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const older = await appendEvent(db.orm, producer, 'account.updated');
    const newer = await appendEvent(db.orm, producer, 'account.deleted');
    const turnKey = `billing:outbox-relay:${db.orm.config.get('schema')}`;

    const otherReplica = db.orm.em.fork();
    await otherReplica.transactional(async (tx) => {
      await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [turnKey]);
      expect(await relayFor(bus, producer).drainOnce()).toEqual({ published: 0 });
    });

    expect(bus.published).toEqual([]);
    expect(await relayFor(bus, producer).drainOnce()).toEqual({ published: 2 });
    expect(bus.published.map((request) => request.messageId)).toEqual([older.event_id, newer.event_id]);
  });

  it('lets replicas drain one outbox together: every row once, in commit order', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const appended: string[] = [];
    for (let i = 0; i < 40; i++) appended.push((await appendEvent(db.orm, producer)).event_id);

    const results = await Promise.all([1, 2, 3].map(() => relayFor(bus, producer, new TestClock(), 5).drainOnce()));

    expect(results.reduce((sum, result) => sum + result.published, 0)).toBe(40);
    expect(bus.published.map((request) => request.messageId)).toEqual(appended);
  });

  it('runs in the background until stopped, and wake() publishes without waiting for the next poll', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const relay = new OutboxRelay({ orm: db.orm, bus, producer, logger: recordingLogger(), pollIntervalMs: 60_000 });
    const early = await appendEvent(db.orm, producer);
    relay.start();
    try {
      await waitFor(() => bus.published.length === 1, { description: 'the first poll to publish the early row' });
      // The relay now sleeps for a minute; only wake() can make it publish this row within the test.
      const late = await appendEvent(db.orm, producer);
      relay.wake();
      await waitFor(() => bus.published.length === 2, { description: 'wake() to publish the late row' });
      expect(bus.published.map((request) => request.messageId)).toEqual([early.event_id, late.event_id]);
    } finally {
      await relay.stop();
    }
  });

  it('publishes a row as soon as the transaction that appended it commits, without waiting for the next poll', () =>
    withSleepingRelay(async ({ producer, bus }) => {
      // The relay sleeps for a minute: only the commit of these rows can wake it within the test.
      const first = await appendEvent(db.orm, producer);
      await waitFor(() => bus.published.length === 1, { description: 'the commit to wake the relay' });
      const second = await appendEvent(db.orm, producer);
      await waitFor(() => bus.published.length === 2, { description: 'the next commit to wake it again' });
      expect(bus.published.map((request) => request.messageId)).toEqual([first.event_id, second.event_id]);
    }));

  it('is woken by the commit of rows inserted in bulk (insertOutboxRecords) too, not by a rollback', () =>
    withSleepingRelay(async ({ producer, bus }) => {
      const recordsOf = (count: number) => accountCreatedRecords(producer, count);
      // A rolled-back bulk insert leaves nothing and must not leave a wake-up behind for its EntityManager.
      await expect(
        inTransaction(db.orm, async (em) => {
          await insertOutboxRecords(
            em,
            recordsOf(1).map(({ record }) => record),
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // The relay sleeps for a minute: only the commit of these rows can wake it within the test.
      const batch = recordsOf(3);
      await inTransaction(db.orm, (em) =>
        insertOutboxRecords(
          em,
          batch.map(({ record }) => record),
        ),
      );
      await waitFor(() => bus.published.length === 3, { description: 'the bulk insert’s commit to wake the relay' });
      expect(bus.published.map((request) => request.messageId)).toEqual(batch.map(({ envelope }) => envelope.event_id));
    }));

  it('is woken by the commit of an outboxInsert run as a WITH query of a statement, in the given order', () =>
    withSleepingRelay(async ({ producer, bus }) => {
      const batch = accountCreatedRecords(producer, 3);
      // As a batch's writes run it: one statement, the outbox insert one of its WITH queries.
      const selected = await inTransaction(db.orm, async (em) => {
        const insert = outboxInsert(
          em,
          batch.map(({ record }) => record),
        )!;
        const { rows } = await executeBound<{ written: string }>(
          em,
          `with w0 as (${insert.sql} returning id) select count(*) as written from w0`,
          insert.params,
        );
        return rows[0]!.written;
      });
      expect(Number(selected)).toBe(3);
      // The relay sleeps for a minute: only the commit of these rows can wake it within the test.
      await waitFor(() => bus.published.length === 3, { description: 'the commit to wake the relay' });
      expect(bus.published.map((request) => request.messageId)).toEqual(batch.map(({ envelope }) => envelope.event_id));
      await inTransaction(db.orm, async (em) => expect(outboxInsert(em, [])).toBeNull());
    }));

  it('marks a published row on its own page, so the mark logs the changed bytes, not the payload again', async () => {
    const producer = uniqueName('relay');
    // Rows of an invoice event's size: about six fill a page when nothing is kept free.
    const records = Array.from(
      { length: 40 },
      (_, index) =>
        outboxRecord({
          producer,
          eventType: 'invoice.issued',
          organizationId: 'org-1',
          aggregateType: 'invoice',
          aggregateId: `invoice-${index}`,
          payloadType: 'billing.events.v1.InvoiceChanged',
          payload: new Uint8Array(1_000).fill(index),
          occurredAt: new Date('2026-01-01T00:00:00Z'),
        }).record,
    );
    await inTransaction(db.orm, (em) => insertOutboxRecords(em, records));
    const pagesOf = async () =>
      db.orm.em
        .fork()
        .execute<{ id: string; page: number }[]>(
          `select id, (ctid::text::point)[0]::int as page from ${table} where subject like ? order by position`,
          [`${producer}.%`],
        );
    const before = await pagesOf();
    // Three rows a page, half of it kept free (about six fit a full page).
    expect(new Set(before.map((row) => row.page)).size).toBeGreaterThanOrEqual(12);

    expect(await relayFor(new RecordingBus(), producer).drainOnce()).toEqual({ published: 40 });

    expect(await pagesOf()).toEqual(before);
  });

  it('claims 500 rows a round by default, in order', async () => {
    const producer = uniqueName('relay');
    const bus = new RecordingBus();
    const records = accountCreatedRecords(producer, 1_100);
    await inTransaction(db.orm, (em) =>
      insertOutboxRecords(
        em,
        records.map(({ record }) => record),
      ),
    );
    const relay = new OutboxRelay({ orm: db.orm, bus, producer, logger: recordingLogger(), pollIntervalMs: 60_000 });

    expect(await relay.drainOnce()).toEqual({ published: 1_100 });

    // The first row of each round names no predecessor: rounds of 500, 500 and 100.
    const roundStarts = bus.published.flatMap((request, index) => (request.previousMessageId ? [] : [index]));
    expect(roundStarts).toEqual([0, 500, 1_000]);
    expect(bus.published.map((request) => request.messageId)).toEqual(records.map(({ envelope }) => envelope.event_id));
  });
});
