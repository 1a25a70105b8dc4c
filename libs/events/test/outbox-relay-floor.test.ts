import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { TestClock, uniqueName, waitFor } from '@billing/testing';
import { type EntityManager, IsolationLevel } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppendToOutboxInput,
  appendToOutbox,
  type EventBus,
  InProcessBus,
  insertOutboxRecords,
  OutboxMessage,
  OutboxRelay,
  outboxRecord,
  type PublishRequest,
} from '../src/index.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
let table: string;
beforeAll(async () => {
  db = await openMigratedTestOrm('events_floor');
  table = `"${db.orm.config.get('schema')}"."outbox"`;
});
afterAll(async () => db?.dispose());
afterEach(async () => {
  await db.orm.em.fork().nativeDelete(OutboxMessage, {});
});

/** An in-process bus that records what it stored and can be told to fail one message. */
class RecordingBus extends InProcessBus {
  readonly published: PublishRequest[] = [];
  failOn: { messageId: string; error: Error } | undefined;

  override async publish(request: PublishRequest): Promise<void> {
    if (this.failOn?.messageId === request.messageId) throw this.failOn.error;
    await new Promise((resolve) => setImmediate(resolve));
    await super.publish(request);
    this.published.push(request);
  }
}

function relayFor(bus: EventBus, producer: string, batchSize: number, clock = new TestClock()): OutboxRelay {
  return new OutboxRelay({
    orm: db.orm,
    bus,
    producer,
    logger: recordingLogger(),
    clock,
    batchSize,
    pollIntervalMs: 20,
  });
}

function eventOf(producer: string, index = 0): AppendToOutboxInput {
  return {
    producer,
    eventType: 'account.updated',
    organizationId: 'org-1',
    aggregateType: 'account',
    aggregateId: randomUUID(),
    payloadType: 'billing.events.v1.AccountChanged',
    payload: new TextEncoder().encode(`payload ${index}`),
    occurredAt: new Date('2026-01-01T00:00:00Z'),
  };
}

/** Commits `count` rows in one transaction (one bulk insert); their ids, oldest first. */
async function commitRows(producer: string, count: number): Promise<string[]> {
  const records = Array.from({ length: count }, (_, index) => outboxRecord(eventOf(producer, index)).record);
  await inTransaction(db.orm, (em) => insertOutboxRecords(em, records));
  return records.map((record) => record.id);
}

/** A transaction that has written one outbox row and stays open until told. */
async function openTransactionWithRow(producer: string): Promise<{
  id: string;
  position: number;
  commit(): Promise<void>;
}> {
  const em = db.orm.em.fork() as EntityManager;
  await em.begin();
  const envelope = appendToOutbox(em, eventOf(producer));
  await em.flush();
  const row = await em.findOneOrFail(OutboxMessage, envelope.event_id);
  return { id: envelope.event_id, position: Number(row.position), commit: () => em.commit() };
}

async function positionOf(id: string): Promise<number> {
  return Number((await db.orm.em.fork().findOneOrFail(OutboxMessage, id)).position);
}

async function unpublishedIds(): Promise<string[]> {
  const rows = await db.orm.em.fork().find(OutboxMessage, { publishedAt: null }, { orderBy: { position: 'asc' } });
  return rows.map((row) => row.id);
}

/**
 * Polls (empty claims) until the relay's floor reaches `position`: a floor moves once no
 * transaction older than the relay's last claim runs, and other test files' transactions count.
 */
async function drainUntilFloor(relay: OutboxRelay, position: number): Promise<void> {
  await waitFor(
    async () => {
      expect((await relay.drainOnce()).error).toBeUndefined();
      return relay.floorPosition === position;
    },
    { description: `the floor to reach ${position}` },
  );
}

/** A read-only repeatable-read transaction that keeps its snapshot until released. */
async function holdSnapshot(): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding!: Promise<void>;
  await new Promise<void>((taken) => {
    holding = db.orm.em.fork().transactional(
      async (tx) => {
        await tx.execute('select 1');
        taken();
        await released;
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ },
    );
  });
  return {
    release: async () => {
      release();
      await holding;
    },
  };
}

/**
 * Buffers the claim's scan touches from `after` on: EXPLAIN (ANALYZE, BUFFERS) of the same select,
 * the second of two on one connection (a connection's first scan of the index also reads its
 * metapage into the connection's cache, which is not the scan's cost).
 */
async function claimScanBuffers(after: number): Promise<number> {
  return db.orm.em.fork().transactional(async (em) => {
    let blocks = 0;
    for (let i = 0; i < 2; i++) {
      const [row] = await em.execute<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }[]>(
        `explain (analyze, buffers, format json)
           select id from ${table} where published_at is null and position > ?
           order by position limit 100 for update skip locked`,
        [after],
      );
      const plan = row!['QUERY PLAN'][0].Plan;
      blocks = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
    }
    return blocks;
  });
}

describe('OutboxRelay claim floor', () => {
  it('scans from a floor just below the unpublished rows, so a claim costs the same after 2,000 or 10,000 published rows', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const relay = relayFor(bus, producer, 100);
    // As in a busy service: an old snapshot keeps the published rows' old versions from being
    // dead to all, so a scan cannot mark their index entries dead and visits each one's heap tuple.
    // (A read-only transaction has no id: it does not hold the floor back.)
    const oldSnapshot = await holdSnapshot();
    const costAfter: Record<string, { floor: number; fromStart: number }> = {};
    try {
      for (const [label, count] of [
        ['2,000', 2_000],
        ['10,000', 8_000],
      ] as const) {
        const ids = await commitRows(producer, count);
        // Empty polls after the drain settle what the last claims saw: the floor reaches the last row.
        await drainUntilFloor(relay, await positionOf(ids.at(-1)!));
        expect(await unpublishedIds()).toEqual([]);
        await commitRows(producer, 1);
        costAfter[label] = { floor: await claimScanBuffers(relay.floorPosition), fromStart: await claimScanBuffers(0) };
        await relay.drainOnce();
      }
    } finally {
      await oldSnapshot.release();
    }

    expect(bus.published).toHaveLength(10_002);
    // The floor's scan stays a few pages (root, leaf, the fresh row's heap page) however many rows
    // were published; a scan from the start walks every dead index entry left behind.
    expect(costAfter['2,000']!.floor).toBeLessThanOrEqual(4);
    expect(costAfter['10,000']!.floor).toBe(costAfter['2,000']!.floor);
    expect(costAfter['10,000']!.fromStart).toBeGreaterThan(5 * costAfter['10,000']!.floor);
    expect(costAfter['10,000']!.fromStart).toBeGreaterThan(costAfter['2,000']!.fromStart);
  });

  it('does not pass a row whose transaction took a lower position and commits later, and publishes it once committed', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const relay = relayFor(bus, producer, 10);
    const before = await commitRows(producer, 25);
    await drainUntilFloor(relay, await positionOf(before.at(-1)!));

    const late = await openTransactionWithRow(producer);
    const after = await commitRows(producer, 45);
    // Many claims, each of which would move the floor if the open transaction did not hold it.
    for (let i = 0; i < 5; i++) expect((await relay.drainOnce()).error).toBeUndefined();

    expect(bus.published.map((request) => request.messageId)).toEqual([...before, ...after]);
    expect(relay.floorPosition).toBe(late.position - 1);

    await late.commit();
    await drainUntilFloor(relay, await positionOf(after.at(-1)!));

    expect(bus.published.map((request) => request.messageId)).toEqual([...before, ...after, late.id]);
  });

  it('keeps the floor below rows it gave back after a failed publish, and republishes them in order', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const relay = relayFor(bus, producer, 2);
    const ids = await commitRows(producer, 9);
    bus.failOn = { messageId: ids[6]!, error: new Error('insufficient resources') };

    const failed = await relay.drainOnce();

    expect(failed.error).toBe(bus.failOn.error);
    expect(bus.published.map((request) => request.messageId)).toEqual(ids.slice(0, 6));
    expect(relay.floorPosition).toBeLessThan(await positionOf(ids[6]!));
    // Polls while the bus still refuses it: the floor may rise to just below it, never past it.
    for (let i = 0; i < 5; i++) await relay.drainOnce();
    expect(relay.floorPosition).toBeLessThan(await positionOf(ids[6]!));

    bus.failOn = undefined;
    expect(await relay.drainOnce()).toEqual({ published: 3 });
    expect(bus.published.map((request) => request.messageId)).toEqual(ids);
    await drainUntilFloor(relay, await positionOf(ids[8]!));
  });

  it('lets two replicas with floors of their own relay one outbox: a row released by one is published by the other', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const first = relayFor(bus, producer, 3);
    const second = relayFor(bus, producer, 3);
    const early = await commitRows(producer, 12);
    await drainUntilFloor(first, await positionOf(early.at(-1)!));

    const later = await commitRows(producer, 9);
    bus.failOn = { messageId: later[4]!, error: new Error('no responders') };
    expect((await second.drainOnce()).error).toBe(bus.failOn.error);
    bus.failOn = undefined;
    expect(second.floorPosition).toBeLessThan(await positionOf(later[4]!));
    expect(await first.drainOnce()).toEqual({ published: 5 });

    expect(bus.published.map((request) => request.messageId)).toEqual([...early, ...later]);
    expect(await unpublishedIds()).toEqual([]);
  });

  it('with writers committing while replicas relay, publishes every row once and each writer’s rows in its order', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const relays = [1, 2, 3].map(() => relayFor(bus, producer, 7));
    const writers = [0, 1, 2, 3].map(async (writer) => {
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        if (i % 5 === writer % 5) {
          // Holds its position open while others commit higher ones.
          const open = await openTransactionWithRow(producer);
          await new Promise((resolve) => setTimeout(resolve, 30));
          await open.commit();
          ids.push(open.id);
        } else {
          ids.push(...(await commitRows(producer, 1 + (i % 3))));
        }
      }
      return ids;
    });
    for (const relay of relays) relay.start();
    try {
      const written = await Promise.all(writers);
      const total = written.reduce((sum, ids) => sum + ids.length, 0);
      await waitFor(() => bus.published.length >= total, { timeoutMs: 20_000, description: 'every row published' });
      const published = bus.published.map((request) => request.messageId);
      expect(new Set(published).size).toBe(total);
      expect(published).toHaveLength(total);
      for (const ids of written) expect(published.filter((id) => ids.includes(id))).toEqual(ids);
    } finally {
      for (const relay of relays) await relay.stop();
    }
    expect(await unpublishedIds()).toEqual([]);
  });

  it('scans from the start every full-scan interval, so a row marked unpublished again below the floor goes out', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const clock = new TestClock('2026-05-01T10:00:00Z');
    const relay = relayFor(bus, producer, 5, clock);
    const ids = await commitRows(producer, 12);
    await drainUntilFloor(relay, await positionOf(ids.at(-1)!));

    // Outside the relay's rules (by hand, to publish it again).
    await db.orm.em.fork().nativeUpdate(OutboxMessage, { id: ids[3]! }, { publishedAt: null });
    expect(await relay.drainOnce()).toEqual({ published: 0 });
    clock.advanceMs(30_000);
    expect(await relay.drainOnce()).toEqual({ published: 1 });

    expect(bus.published.map((request) => request.messageId)).toEqual([...ids, ids[3]]);
  });

  it('claims from the start every time when the outbox positions are drawn before the transaction has an id', async () => {
    const producer = uniqueName('floor');
    const bus = new RecordingBus();
    const logger = recordingLogger();
    const em = db.orm.em.fork();
    const sequence = `${db.orm.config.get('schema')}.outbox_position_seq`;
    await em.execute(`alter table ${table} alter column position set default nextval('${sequence}')`);
    try {
      const relay = new OutboxRelay({ orm: db.orm, bus, producer, logger, clock: new TestClock(), batchSize: 2 });
      const ids = await commitRows(producer, 7);
      await relay.drainOnce();
      await relay.drainOnce();

      expect(bus.published.map((request) => request.messageId)).toEqual(ids);
      expect(relay.floorPosition).toBe(0);
      expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
        'outbox positions do not allow a claim floor; every claim scans the outbox from its start',
      ]);
    } finally {
      await em.execute(
        `alter table ${table} alter column position set default (case when pg_current_xact_id() is not null then nextval('${sequence}') end)`,
      );
    }
  });
});
