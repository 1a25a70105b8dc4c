/**
 * A durable that is gone while a process consumes it (NATS lost its state, or someone deleted it):
 * the consumer makes it again from the stream's first message and goes on, so events stored after
 * the loss still arrive (before, the loop retried a durable that no longer existed until restarted).
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

it('makes a durable deleted while consumed again from the first message, and delivers what came after', async () => {
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
    // Remade from the stream's first message: everything again, in order (the inbox de-duplicates).
    expect(received).toEqual(['first', 'before', 'first', 'after']);
    expect(await bus.durableExists(stream, 'lost')).toBe(true);
    expect(logger.lines.some((line) => line.message?.includes('the durable was gone'))).toBe(true);
  } finally {
    await running?.stop();
    await bus.close();
  }
});
