import { randomUUID } from 'node:crypto';
import { testNatsUrl, uniqueName, waitFor } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type EventEnvelope,
  encodeEnvelope,
  InboxMessage,
  JetStreamBus,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
} from '../src/index.js';
import { HandledEffect } from './support/entities.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
let bus: JetStreamBus;
const streams: string[] = [];
beforeAll(async () => {
  db = await openMigratedTestOrm('events_batched');
  bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'events-batched-test' });
});
afterAll(async () => {
  await bus?.close();
  // The shared test server outlives this run: remove the streams it created.
  const nc = await connect({ servers: testNatsUrl() });
  const jsm = await jetstreamManager(nc);
  for (const name of streams) await jsm.streams.delete(name);
  await nc.close();
  await db?.dispose();
});

/** A stream of its own for one test (removed after the run), a durable name, and a publisher to it. */
async function freshStream(name: string) {
  const producer = uniqueName(name);
  const stream = streamNameFor(producer);
  streams.push(stream);
  await bus.ensureStream(producer);
  const publish = async (events: EventEnvelope[]) => {
    for (const event of events) {
      await bus.publish({
        subject: `${producer}.account.created`,
        messageId: event.event_id,
        data: encodeEnvelope(event),
      });
    }
  };
  const consumer = uniqueName('consumer');
  // What startConsumer is pointed at: the test database, the bus, this stream under a durable of its own.
  const target = { orm: db.orm, bus, consumer, stream, filterSubject: `${producer}.>` };
  return { consumer, stream, target, publish };
}

/** Waits until the consumer's inbox holds `count` events. */
const inboxOf = (consumer: string, count: number) =>
  waitFor(async () => (await db.orm.em.fork().count(InboxMessage, { consumer })) === count, {
    timeoutMs: 20_000,
    description: `${count} events in the inbox`,
  });

function envelope(): EventEnvelope {
  return {
    event_id: randomUUID(),
    event_type: 'account.created',
    schema_version: 1,
    organization_id: 'org-1',
    occurred_at: new Date('2026-01-01T00:00:00Z'),
    request_id: 'req-1',
    aggregate_type: 'account',
    aggregate_id: 'acc-1',
    payload_type: 'billing.events.v1.AccountChanged',
    payload: Buffer.from([]),
  };
}

it('applies the events that arrived together in one transaction each batch, every one once, and a failing one alone', async () => {
  const { consumer, target, publish } = await freshStream('batched');
  const first = Array.from({ length: 40 }, envelope);
  const second = Array.from({ length: 40 }, envelope);
  const events = [...first, ...second];
  await publish(first);
  const failing = second[17]!;
  let failures = 0;
  const transactions = new Map<string, string>();
  const handle = async (em: EntityManager, event: EventEnvelope) => {
    // Fails twice: the batch it is in is rolled back and handled one by one, this one retried.
    if (event.event_id === failing.event_id && failures < 2) {
      failures++;
      throw new Error('not yet');
    }
    const [row] = await em.execute<Array<{ txid: string }>>('select txid_current()::text as txid');
    transactions.set(event.event_id, row!.txid);
    em.create(HandledEffect, { id: randomUUID(), eventId: event.event_id, eventType: event.event_type });
  };
  const running: RunningConsumer = await startConsumer({
    ...target,
    handle,
    logger: recordingLogger(),
    retryDelayMs: () => 20,
    batch: true,
  });
  const inboxReaches = (count: number) => inboxOf(consumer, count);
  try {
    await inboxReaches(first.length);
    // Forty events waiting when the consumer started: far fewer transactions than events.
    expect(new Set(first.map((e) => transactions.get(e.event_id))).size).toBeLessThan(first.length / 2);
    await publish(second);
    await inboxReaches(events.length);
    const effects = await db.orm.em.fork().find(HandledEffect, { eventId: { $in: events.map((e) => e.event_id) } });
    expect(effects.map((effect) => effect.eventId).sort()).toEqual(events.map((e) => e.event_id).sort());
    expect(failures).toBe(2);
  } finally {
    await running.stop();
  }
});

it('hands a whole batch to handleBatch once (inbox rows in one statement), skips events handled before, and retries a failed batch one by one through handle', async () => {
  const { consumer, target, publish } = await freshStream('wholebatch');
  const first = Array.from({ length: 40 }, envelope);
  const second = Array.from({ length: 40 }, envelope);
  const events = [...first, ...second];
  // Handled before the consumer starts (as by a producer's hand-over): its inbox row exists.
  const handledBefore = first[5]!;
  await db.orm.em.fork().insert(InboxMessage, { consumer, messageId: handledBefore.event_id, processedAt: new Date() });
  const failing = second[17]!;
  let failures = 0;
  const batchSizes: number[] = [];
  const oneByOne: string[] = [];
  const effect = (em: EntityManager, event: EventEnvelope) =>
    em.create(HandledEffect, { id: randomUUID(), eventId: event.event_id, eventType: event.event_type });
  const running: RunningConsumer = await startConsumer({
    ...target,
    handle: async (em, event) => {
      if (event.event_id === failing.event_id && failures < 2) {
        failures++;
        throw new Error('not yet');
      }
      oneByOne.push(event.event_id);
      effect(em, event);
    },
    handleBatch: async (em, batch) => {
      if (batch.some((event) => event.event_id === failing.event_id)) {
        failures++;
        throw new Error('not yet');
      }
      batchSizes.push(batch.length);
      for (const event of batch) effect(em, event);
    },
    logger: recordingLogger(),
    retryDelayMs: () => 20,
    batch: true,
  });
  const inboxReaches = (count: number) => inboxOf(consumer, count);
  try {
    await publish(first);
    await inboxReaches(first.length);
    // Forty events waiting: far fewer batches than events.
    expect(batchSizes.length).toBeLessThan(first.length / 2);
    await publish(second);
    await inboxReaches(events.length);
    const effects = await db.orm.em.fork().find(HandledEffect, { eventId: { $in: events.map((e) => e.event_id) } });
    // Every event's effect once, except the one handled before the consumer ran.
    expect(effects.map((row) => row.eventId).sort()).toEqual(
      events
        .filter((e) => e !== handledBefore)
        .map((e) => e.event_id)
        .sort(),
    );
    // The batch with the failing event was rolled back and handled one by one.
    expect(oneByOne).toContain(failing.event_id);
    expect(failures).toBeGreaterThanOrEqual(2);
  } finally {
    await running.stop();
  }
});

it('acknowledges the events it is told to ignore without a transaction or an inbox row, alone or in a batch', async () => {
  const { consumer, stream, target, publish } = await freshStream('ignoring');
  const ignoredEvent = () => ({ ...envelope(), aggregate_id: 'nothing-to-do' });
  const handled: string[] = [];
  const running: RunningConsumer = await startConsumer({
    ...target,
    handle: async (_em, event) => {
      handled.push(event.event_id);
    },
    handleBatch: async (_em, batch) => {
      handled.push(...batch.map((event) => event.event_id));
    },
    ignore: (event) => event.aggregate_id === 'nothing-to-do',
    logger: recordingLogger(),
    retryDelayMs: () => 20,
    batch: true,
  });
  const nc = await connect({ servers: testNatsUrl() });
  const jsm = await jetstreamManager(nc);
  const settled = () =>
    waitFor(
      async () => {
        const info = await jsm.consumers.info(stream, consumer);
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      { timeoutMs: 20_000, description: 'every message acknowledged' },
    );
  try {
    // Alone: one ignored event, then one to handle.
    const alone = [ignoredEvent(), envelope()];
    for (const event of alone) {
      await publish([event]);
      await settled();
    }
    // In batches: ignored and handled events interleaved.
    const mixed = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? ignoredEvent() : envelope()));
    await publish(mixed);
    await settled();

    const all = [...alone, ...mixed];
    const toHandle = all.filter((event) => event.aggregate_id !== 'nothing-to-do').map((event) => event.event_id);
    expect(handled.sort()).toEqual([...toHandle].sort());
    const inbox = await db.orm.em.fork().find(InboxMessage, { consumer });
    expect(inbox.map((row) => row.messageId).sort()).toEqual([...toHandle].sort());
  } finally {
    await running.stop();
    await nc.close();
  }
});

it('starts the next batch in its own transaction once handleBatch admits it, before the first commits; every event once', async () => {
  const { consumer, target, publish } = await freshStream('pipelined');
  // Twenty waiting when the consumer starts: a read of more than one of them makes a batch.
  const first = Array.from({ length: 20 }, envelope);
  const second = Array.from({ length: 5 }, envelope);
  // A batch is what arrived in one read, so the events may come as more than one (CI saw that);
  // a lone message goes through handle. The test holds the first batch, whichever events it has.
  const runs: Array<{ eventIds: string[]; ended: boolean; txid: string }> = [];
  const startRun = async (em: EntityManager, events: readonly EventEnvelope[]) => {
    const [row] = await em.execute<Array<{ txid: string }>>('select txid_current()::text as txid');
    for (const event of events)
      em.create(HandledEffect, { id: randomUUID(), eventId: event.event_id, eventType: event.event_type });
    const run = { eventIds: events.map((event) => event.event_id), ended: false, txid: row!.txid };
    runs.push(run);
    return run;
  };
  let held: { eventIds: string[]; ended: boolean } | undefined;
  let releaseHeld!: () => void;
  const heldUntilReleased = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  let heldReady!: (admit: () => void) => void;
  const heldRunning = new Promise<() => void>((resolve) => {
    heldReady = resolve;
  });
  await publish(first);
  const running: RunningConsumer = await startConsumer({
    ...target,
    handle: async (em, event) => {
      (await startRun(em, [event])).ended = true;
    },
    handleBatch: async (em, batch, admitNext) => {
      const run = await startRun(em, batch);
      if (!held) {
        held = run;
        heldReady(admitNext);
        await heldUntilReleased;
      }
      run.ended = true;
    },
    logger: recordingLogger(),
    batch: true,
  });
  const runsAfterHeld = () => runs.slice(runs.indexOf(held as (typeof runs)[number]) + 1);
  try {
    const admit = await heldRunning;
    await publish(second);
    // Not admitted: nothing more starts, although the second events have arrived.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(runsAfterHeld()).toEqual([]);
    admit();
    // Every other event handled, in runs that ended while the held batch still runs.
    const others = [...first, ...second].map((event) => event.event_id).filter((id) => !held!.eventIds.includes(id));
    await waitFor(
      async () => {
        const handled = runs.filter((run) => run !== held && run.ended).flatMap((run) => run.eventIds);
        return others.every((id) => handled.includes(id)) ? true : undefined;
      },
      { timeoutMs: 10_000, description: 'the other events handled while the held batch runs' },
    );
    expect(runsAfterHeld().length).toBeGreaterThan(0);
    expect(held!.ended).toBe(false);
    releaseHeld();
    await inboxOf(consumer, first.length + second.length);
    expect(runs.every((run) => run.ended)).toBe(true);
    // Each run its own transaction, and every event in exactly one run.
    expect(new Set(runs.map((run) => run.txid)).size).toBe(runs.length);
    const ids = [...first, ...second].map((event) => event.event_id).sort();
    expect(runs.flatMap((run) => run.eventIds).sort()).toEqual(ids);
    const effects = await db.orm.em.fork().find(HandledEffect, { eventId: { $in: ids } });
    expect(effects.map((row) => row.eventId).sort()).toEqual(ids);
  } finally {
    releaseHeld();
    await running.stop();
  }
});

it('pulls fetchSize messages at a time, so that a batch can hold more than the default 500', async () => {
  const { consumer, target, publish } = await freshStream('fetchsize');
  const events = Array.from({ length: 1_200 }, envelope);
  await publish(events);
  const batchSizes: number[] = [];
  const running: RunningConsumer = await startConsumer({
    ...target,
    handle: async () => {},
    handleBatch: async (_em, batch) => {
      batchSizes.push(batch.length);
      // Long enough for the rest of the pull to arrive meanwhile and make the next batch.
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
    logger: recordingLogger(),
    batch: true,
    fetchSize: 1_000,
  });
  try {
    // Every event handled (a batch that is one event goes to `handle`, so the inbox counts them).
    await inboxOf(consumer, events.length);
    expect(Math.max(...batchSizes)).toBeGreaterThan(500);
    expect(Math.max(...batchSizes)).toBeLessThanOrEqual(1_000);
  } finally {
    await running.stop();
  }
});

it('refuses a fetchSize that is not a positive integer', async () => {
  const { target } = await freshStream('badfetch');
  for (const fetchSize of [0, -1, 2.5]) {
    await expect(
      startConsumer({ ...target, handle: async () => {}, logger: recordingLogger(), batch: true, fetchSize }),
    ).rejects.toThrow(`fetchSize must be a positive integer, not ${fetchSize}`);
  }
});
