import { randomUUID } from 'node:crypto';
import { AppError, StatusCode } from '@billing/errors';
import { uniqueName, waitFor } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsumeRequest,
  type EventEnvelope,
  encodeEnvelope,
  InboxMessage,
  InProcessBus,
  type RunningConsumer,
  type StartConsumerOptions,
  startConsumer,
  streamNameFor,
} from '../src/index.js';
import { HandledEffect } from './support/entities.js';
import { recordingLogger } from './support/recording-logger.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('events_consumer');
});
afterAll(async () => db?.dispose());

const running: RunningConsumer[] = [];
afterEach(async () => {
  for (const consumer of running.splice(0)) await consumer.stop();
});

type Settlement = 'ack' | 'nak' | 'term' | 'lost-ack';

/**
 * An in-process bus that records how each delivery was settled and can lose the first ack of each
 * message, as when a consumer process dies right after its transaction committed.
 */
class ObservedBus extends InProcessBus {
  loseFirstAck = false;
  readonly deliveries: { messageId: string; deliveryCount: number; settlement?: Settlement }[] = [];

  override consume(request: ConsumeRequest): Promise<RunningConsumer> {
    return super.consume({
      ...request,
      handler: (message) => {
        const delivery: (typeof this.deliveries)[number] = {
          messageId: message.messageId,
          deliveryCount: message.deliveryCount,
        };
        this.deliveries.push(delivery);
        const settle = (settlement: Settlement, action: () => Promise<void>) => () => {
          delivery.settlement = settlement;
          return action();
        };
        return request.handler({
          ...message,
          ack:
            this.loseFirstAck && message.deliveryCount === 1
              ? settle('lost-ack', async () => {})
              : settle('ack', () => message.ack()),
          nak: (delayMs) => settle('nak', () => message.nak(delayMs))(),
          term: settle('term', () => message.term()),
        });
      },
    });
  }

  settlementsOf(messageId: string): (Settlement | undefined)[] {
    return this.deliveries.filter((d) => d.messageId === messageId).map((d) => d.settlement);
  }
}

function envelope(eventType = 'account.created'): EventEnvelope {
  return {
    event_id: randomUUID(),
    event_type: eventType,
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

async function setup(handle: (em: EntityManager, event: EventEnvelope) => Promise<void> = recordEffect) {
  const bus = new ObservedBus();
  const producer = uniqueName('producer');
  const consumer = uniqueName('consumer');
  const logger = recordingLogger();
  await bus.ensureStream(producer);
  const start = async (options: Pick<StartConsumerOptions, 'maxAttempts' | 'onPoison'> = {}) => {
    running.push(
      await startConsumer({
        orm: db.orm,
        bus,
        consumer,
        stream: streamNameFor(producer),
        filterSubject: `${producer}.>`,
        handle,
        logger,
        ackWaitMs: 200,
        retryDelayMs: () => 20,
        ...options,
      }),
    );
  };
  const publish = (event: EventEnvelope, data = encodeEnvelope(event), messageId = event.event_id) =>
    bus.publish({ subject: `${producer}.${event.event_type}`, messageId, data });
  return { bus, consumer, logger, start, publish };
}

async function recordEffect(em: EntityManager, event: EventEnvelope): Promise<void> {
  em.create(HandledEffect, { id: randomUUID(), eventId: event.event_id, eventType: event.event_type });
}

const effectsOf = (event: EventEnvelope) => db.orm.em.fork().count(HandledEffect, { eventId: event.event_id });
const inboxHas = async (consumer: string, event: EventEnvelope) =>
  (await db.orm.em.fork().count(InboxMessage, { consumer, messageId: event.event_id })) === 1;

describe('startConsumer', () => {
  it('handles an event once and records it in the inbox', async () => {
    const { bus, consumer, start, publish } = await setup();
    const event = envelope();
    await start();
    await publish(event);

    await waitFor(() => bus.settlementsOf(event.event_id).includes('ack'), { description: 'the ack' });

    expect(bus.settlementsOf(event.event_id)).toEqual(['ack']);
    expect(await inboxHas(consumer, event)).toBe(true);
    expect(await effectsOf(event)).toBe(1);
  });

  it('gives a redelivered message no second effect', async () => {
    const { bus, consumer, start, publish } = await setup();
    bus.loseFirstAck = true;
    const event = envelope();
    await start();
    await publish(event);

    await waitFor(() => bus.settlementsOf(event.event_id).includes('ack'), {
      description: 'the redelivery after the lost ack to be acked',
    });

    expect(bus.settlementsOf(event.event_id)).toEqual(['lost-ack', 'ack']);
    expect(await inboxHas(consumer, event)).toBe(true);
    expect(await effectsOf(event)).toBe(1);
  });

  it('skips an event republished under another message id, by its event id', async () => {
    const { bus, consumer, start, publish } = await setup();
    const event = envelope();
    await start();
    await publish(event);
    // The same bytes under a new message id: the bus cannot dedupe this copy, only the inbox can.
    await publish(event, encodeEnvelope(event), `${event.event_id}-republished`);

    await waitFor(() => bus.deliveries.filter((d) => d.settlement === 'ack').length === 2, {
      description: 'both copies to be acked',
    });

    expect(await inboxHas(consumer, event)).toBe(true);
    expect(await effectsOf(event)).toBe(1);
  });

  it('terminates and reports an envelope it cannot decode, and carries on', async () => {
    const { bus, consumer, logger, start, publish } = await setup();
    const good = envelope();
    await start();
    await publish({ ...envelope(), event_id: 'poison-1' }, new Uint8Array([0xff, 0xff, 0xff]));
    await publish(good);

    await waitFor(() => inboxHas(consumer, good), { description: 'the good event after the poison' });

    expect(bus.settlementsOf('poison-1')).toEqual(['term']);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'poison event: cannot decode envelope; terminated' }),
    );
  });

  it('retries transient failures, rolling back each failed attempt, until the handler succeeds', async () => {
    let calls = 0;
    const { bus, consumer, start, publish } = await setup(async (em, event) => {
      calls += 1;
      await recordEffect(em, event);
      await em.flush();
      if (calls <= 2) throw new AppError({ code: StatusCode.UNAVAILABLE, reason: 'DOWN', message: 'down' });
    });
    const event = envelope();
    await start({ maxAttempts: 2 });
    await publish(event);

    await waitFor(() => bus.settlementsOf(event.event_id).includes('ack'), { description: 'the third attempt' });

    // maxAttempts does not cut transient failures short; the two failed attempts left nothing behind.
    expect(bus.settlementsOf(event.event_id)).toEqual(['nak', 'nak', 'ack']);
    expect(await inboxHas(consumer, event)).toBe(true);
    expect(await effectsOf(event)).toBe(1);
  });

  it('terminates and reports an event whose handler keeps failing, after maxAttempts', async () => {
    const { bus, consumer, logger, start, publish } = await setup(async () => {
      throw AppError.refused('UNKNOWN_PLAN', 'No such plan.');
    });
    const event = envelope();
    await start({ maxAttempts: 3 });
    await publish(event);

    await waitFor(() => bus.settlementsOf(event.event_id).includes('term'), { description: 'the poison verdict' });

    expect(bus.settlementsOf(event.event_id)).toEqual(['nak', 'nak', 'term']);
    expect(await inboxHas(consumer, event)).toBe(false);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'poison event: handler keeps failing; terminated',
        fields: expect.objectContaining({ event_id: event.event_id, deliveries: 3 }),
      }),
    );
  });

  it('tells onPoison of an event it sets aside, and retries the event while recording it fails', async () => {
    const { bus, start, publish } = await setup(async () => {
      throw AppError.refused('UNKNOWN_PLAN', 'No such plan.');
    });
    const told: { eventId: string; reason: unknown }[] = [];
    let failures = 1;
    const event = envelope();
    await start({
      maxAttempts: 2,
      onPoison: async (poisoned, error) => {
        if (failures-- > 0) throw new Error('database down');
        told.push({ eventId: poisoned.event_id, reason: (error as AppError).reason });
      },
    });
    await publish(event);

    await waitFor(() => bus.settlementsOf(event.event_id).includes('term'), { description: 'the poison verdict' });

    // The second delivery's verdict could not be recorded: it came back once more.
    expect(bus.settlementsOf(event.event_id)).toEqual(['nak', 'nak', 'term']);
    expect(told).toEqual([{ eventId: event.event_id, reason: 'UNKNOWN_PLAN' }]);
  });

  it('refuses a subject filter outside the stream it names', async () => {
    const { bus } = await setup();
    await expect(
      startConsumer({
        orm: db.orm,
        bus,
        consumer: 'c',
        stream: 'ACCOUNTS',
        filterSubject: 'invoicing.>',
        handle: recordEffect,
        logger: recordingLogger(),
      }),
    ).rejects.toThrow(/not in stream ACCOUNTS/);
  });
});
