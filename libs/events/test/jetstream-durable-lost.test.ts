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

/**
 * Runs `steps` with a bus (logging to `logger`), a publisher of text messages to the stream, and a
 * consumer of `durable` for new messages recording their texts; stops both after.
 */
async function withConsumer(
  durable: string,
  steps: (tools: {
    publish: (text: string) => Promise<void>;
    received: string[];
    madeAgainFrom: () => unknown[];
    startConsuming: () => Promise<void>;
    bus: JetStreamBus;
  }) => Promise<void>,
): Promise<void> {
  const logger = recordingLogger();
  const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'durable-lost-test', logger });
  const received: string[] = [];
  let running: RunningConsumer | undefined;
  try {
    await bus.ensureStream(producer);
    await steps({
      bus,
      received,
      publish: (text) =>
        bus.publish({ subject: `${producer}.thing.created`, messageId: text, data: new TextEncoder().encode(text) }),
      madeAgainFrom: () =>
        logger.lines
          .filter((line) => line.message === 'the durable was gone; made it again')
          .map((line) => line.fields.from),
      startConsuming: async () => {
        running = await bus.consume({
          stream,
          durable,
          filterSubject: `${producer}.>`,
          deliverFrom: 'new',
          handler: async (message) => {
            received.push(new TextDecoder().decode(message.data));
            await message.ack();
          },
        });
      },
    });
  } finally {
    await running?.stop();
    await bus.close();
  }
}

async function deleteDurable(durable: string): Promise<void> {
  const nc = await connect({ servers: testNatsUrl() });
  try {
    await (await jetstreamManager(nc)).consumers.delete(stream, durable);
  } finally {
    await nc.close();
  }
}

const until = (received: string[], text: string) =>
  waitFor(() => received.includes(text), { timeoutMs: 15_000, description: `"${text}" received` });

it('makes a durable deleted while consumed again after the last message it received, and delivers what came after', async () => {
  await withConsumer('lost', async ({ bus, publish, received, madeAgainFrom, startConsuming }) => {
    await publish('before');
    await startConsuming();
    await publish('first');
    await until(received, 'first');
    expect(received).toEqual(['first']);

    await deleteDurable('lost');
    await publish('after');
    await until(received, 'after');
    // Remade after 'first' (stream sequence 2): nothing before it again.
    expect(received).toEqual(['first', 'after']);
    expect(await bus.durableExists(stream, 'lost')).toBe(true);
    expect(madeAgainFrom()).toEqual([3]);
  });
});

it("makes it again from the stream's first message when it had received nothing", async () => {
  await withConsumer('lost-early', async ({ publish, received, madeAgainFrom, startConsuming }) => {
    await startConsuming();
    await deleteDurable('lost-early');
    await publish('late');
    await until(received, 'late');
    // The stream's whole history (the first test's events and this one), in order.
    expect(received).toEqual(['before', 'first', 'after', 'late']);
    expect(madeAgainFrom()).toEqual(['first']);
  });
});
