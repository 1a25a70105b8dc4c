/**
 * A durable that is gone while a process consumes it (NATS lost its state, or someone deleted it):
 * once JetStream has said so for a few seconds, the consumer makes it again after the last message
 * it received and goes on, so events stored after the loss still arrive, and the ones before are
 * not replayed (before, the loop retried a durable that no longer existed until restarted).
 */
import { testNatsUrl, uniqueName, waitFor } from '@billing/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, expect, it } from 'vitest';
import { JetStreamBus, type RunningConsumer, streamNameFor } from '../src/index.js';
import { recordingLogger } from './support/recording-logger.js';

const producer = uniqueName('durable_lost');
const stream = streamNameFor(producer);

afterAll(async () => {
  const nc = await connect({ servers: testNatsUrl() });
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
  await nc.close();
});

it('makes a durable deleted while consumed again after the last message it received, and delivers what came after', async () => {
  const logger = recordingLogger();
  const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'durable-lost-test', logger });
  const received: string[] = [];
  let running: RunningConsumer | undefined;
  const publish = (id: string) =>
    bus.publish({ subject: `${producer}.thing.created`, messageId: id, data: new TextEncoder().encode(id) });
  try {
    await bus.ensureStream(producer);
    await publish('before');
    running = await bus.consume({
      stream,
      durable: 'lost',
      filterSubject: `${producer}.>`,
      deliverFrom: 'new',
      handler: async (message) => {
        received.push(new TextDecoder().decode(message.data));
        await message.ack();
      },
    });
    await publish('first');
    await waitFor(() => received.includes('first'), { timeoutMs: 10_000, description: 'the first event' });
    expect(received).toEqual(['first']);

    const nc = await connect({ servers: testNatsUrl() });
    try {
      await (await jetstreamManager(nc)).consumers.delete(stream, 'lost');
    } finally {
      await nc.close();
    }
    await publish('after');
    await waitFor(() => received.includes('after'), { timeoutMs: 15_000, description: 'the event after the loss' });
    // Remade after 'first' (stream sequence 2): nothing before it again.
    expect(received).toEqual(['first', 'after']);
    expect(await bus.durableExists(stream, 'lost')).toBe(true);
    expect(
      logger.lines
        .filter((line) => line.message === 'the durable was gone; made it again')
        .map((line) => line.fields.from),
    ).toEqual([3]);
  } finally {
    await running?.stop();
    await bus.close();
  }
});

it("makes it again from the stream's first message when it had received nothing", async () => {
  const logger = recordingLogger();
  const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'durable-lost-test', logger });
  const received: string[] = [];
  let running: RunningConsumer | undefined;
  try {
    await bus.ensureStream(producer);
    running = await bus.consume({
      stream,
      durable: 'lost-early',
      filterSubject: `${producer}.>`,
      deliverFrom: 'new',
      handler: async (message) => {
        received.push(new TextDecoder().decode(message.data));
        await message.ack();
      },
    });
    const nc = await connect({ servers: testNatsUrl() });
    try {
      await (await jetstreamManager(nc)).consumers.delete(stream, 'lost-early');
    } finally {
      await nc.close();
    }
    await bus.publish({
      subject: `${producer}.thing.created`,
      messageId: 'late',
      data: new TextEncoder().encode('late'),
    });
    await waitFor(() => received.includes('late'), { timeoutMs: 15_000, description: 'the event after the loss' });
    // The stream's whole history (the first test's events and this one), in order.
    expect(received).toEqual(['before', 'first', 'after', 'late']);
    expect(
      logger.lines
        .filter((line) => line.message === 'the durable was gone; made it again')
        .map((line) => line.fields.from),
    ).toEqual(['first']);
  } finally {
    await running?.stop();
    await bus.close();
  }
});
