import { randomUUID } from 'node:crypto';
import { type NatsServerHandle, startNatsServer, waitFor } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamBus, OutboxRelay, startConsumer, streamNameFor } from '../src/index.js';
import { appendEvent } from './support/append-event.js';
import { HandledEffect } from './support/entities.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let producerDb: TestOrm;
let consumerDb: TestOrm;
let nats: NatsServerHandle;
beforeAll(async () => {
  [producerDb, consumerDb, nats] = await Promise.all([
    openMigratedTestOrm('events_e2e_producer'),
    openMigratedTestOrm('events_e2e_consumer'),
    startNatsServer(),
  ]);
});
afterAll(async () => {
  await producerDb?.dispose();
  await consumerDb?.dispose();
  await nats?.dispose();
});

describe('outbox → relay → JetStream → consumer', () => {
  it('carries events between two services, also across a NATS restart', async () => {
    const producerBus = await JetStreamBus.connect({ servers: nats.url, name: 'producer', publishTimeoutMs: 500 });
    const consumerBus = await JetStreamBus.connect({ servers: nats.url, name: 'consumer' });
    const relay = new OutboxRelay({
      orm: producerDb.orm,
      bus: producerBus,
      producer: 'accounts',
      logger: recordingLogger(),
      pollIntervalMs: 50,
      maxBackoffMs: 500,
    });
    const consumer = await startConsumer({
      orm: consumerDb.orm,
      bus: consumerBus,
      consumer: 'analytics-accounts',
      stream: streamNameFor('accounts'),
      filterSubject: 'accounts.account.*',
      logger: recordingLogger(),
      handle: async (em, event) => {
        em.create(HandledEffect, { id: randomUUID(), eventId: event.event_id, eventType: event.event_type });
      },
    });
    relay.start();
    const handled = (eventId: string) => consumerDb.orm.em.fork().count(HandledEffect, { eventId });
    try {
      const first = await appendEvent(producerDb.orm, 'accounts', 'account.created');
      await waitFor(async () => (await handled(first.event_id)) === 1, { description: 'the first event' });
      await nats.stop();
      const second = await appendEvent(producerDb.orm, 'accounts', 'account.updated');
      await nats.restart();
      await waitFor(async () => (await handled(second.event_id)) === 1, {
        timeoutMs: 20_000,
        description: 'the event written while NATS was down',
      });
      const effects = await consumerDb.orm.em.fork().find(HandledEffect, {}, { orderBy: { eventType: 'asc' } });
      expect(effects.map((effect) => [effect.eventId, effect.eventType])).toEqual([
        [first.event_id, 'account.created'],
        [second.event_id, 'account.updated'],
      ]);
    } finally {
      await relay.stop();
      await consumer.stop();
      await producerBus.close();
      await consumerBus.close();
    }
  }, 30_000);
});
