import { type NatsServerHandle, startNatsServer, waitFor } from '@billing/testing';
import { AckPolicy, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventEnvelope, JetStreamBus, OutboxMessage, OutboxRelay, streamNameFor } from '../src/index.js';
import { appendEvent } from './support/append-event.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

const PRODUCER = 'accounts';
const STREAM = streamNameFor(PRODUCER);

let db: TestOrm;
let nats: NatsServerHandle;
beforeAll(async () => {
  db = await openMigratedTestOrm('events_restart');
  nats = await startNatsServer();
});
afterAll(async () => {
  await db?.dispose();
  await nats?.dispose();
});

/** Every message id in the stream, read with a throwaway consumer straight from JetStream. */
async function messageIdsInStream(url: string): Promise<string[]> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const { state } = await jsm.streams.info(STREAM);
    const inspector = await jsm.consumers.add(STREAM, { ack_policy: AckPolicy.None });
    const consumer = await jsm.jetstream().consumers.get(STREAM, inspector.name);
    const ids: string[] = [];
    const batch = await consumer.fetch({ max_messages: state.messages, expires: 2_000 });
    for await (const message of batch) {
      ids.push(message.headers?.get('Nats-Msg-Id') ?? '');
      if (ids.length === state.messages) break;
    }
    return ids;
  } finally {
    await nc.close();
  }
}

describe('OutboxRelay across a NATS restart', () => {
  it('keeps retrying while NATS is down, then publishes every row exactly once', async () => {
    const bus = await JetStreamBus.connect({ servers: nats.url, publishTimeoutMs: 500 });
    const logger = recordingLogger();
    const relay = new OutboxRelay({
      orm: db.orm,
      bus,
      producer: PRODUCER,
      logger,
      pollIntervalMs: 50,
      maxBackoffMs: 500,
    });
    const before = await appendEvent(db.orm, PRODUCER);
    relay.start();
    try {
      const pendingCount = () => db.orm.em.fork().count(OutboxMessage, { publishedAt: null });
      await waitFor(async () => (await pendingCount()) === 0, { description: 'the row written before the outage' });

      await nats.stop();
      const during: EventEnvelope[] = [];
      for (let i = 0; i < 5; i++) during.push(await appendEvent(db.orm, PRODUCER));
      await waitFor(async () => (await db.orm.em.fork().findOne(OutboxMessage, during[0]!.event_id))?.attempts, {
        timeoutMs: 10_000,
        description: 'a failed publish attempt to be recorded',
      });
      const failed = await db.orm.em.fork().findOneOrFail(OutboxMessage, during[0]!.event_id);
      expect(failed.publishedAt).toBeNull();
      expect(failed.lastError).toBeTruthy();

      await nats.restart();
      await waitFor(async () => (await pendingCount()) === 0, {
        timeoutMs: 20_000,
        description: 'the relay to catch up after the restart',
      });
      expect(logger.lines.some((line) => line.message === 'outbox relay could not publish; retrying')).toBe(true);

      // A relay that dies after publishing but before marking: its claims roll back, and the relay
      // that takes over (a new process, scanning from the start) re-publishes; the stream keeps one copy.
      await relay.stop();
      await db.orm.em.fork().nativeUpdate(OutboxMessage, {}, { publishedAt: null });
      const takeover = new OutboxRelay({ orm: db.orm, bus, producer: PRODUCER, logger, pollIntervalMs: 50 });
      expect((await takeover.drainOnce()).published).toBe(6);

      const expected = [before, ...during].map((event) => event.event_id);
      expect(await messageIdsInStream(nats.url)).toEqual(expected);
    } finally {
      await relay.stop();
      await bus.close();
    }
  }, 30_000);
});
