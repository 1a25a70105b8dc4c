import { testNatsUrl, uniqueName, waitFor } from '@billing/testing';
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamBus, streamNameFor } from '../src/index.js';

let nc: NatsConnection;
let jsm: JetStreamManager;
const streams: string[] = [];

beforeAll(async () => {
  nc = await connect({ servers: testNatsUrl() });
  jsm = await jetstreamManager(nc);
});
afterAll(async () => {
  for (const name of streams) await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

describe('JetStreamBus acks (sent together once per event-loop turn)', () => {
  it('records the acks of all consumers settled in one turn, also when the consumers stop right after', async () => {
    const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'acks-test' });
    const producer = uniqueName('acks');
    const stream = streamNameFor(producer);
    streams.push(stream);
    await bus.ensureStream(producer);
    for (let i = 0; i < 20; i++) {
      await bus.publish({ subject: `${producer}.thing.created`, messageId: `m-${i}`, data: new Uint8Array([i]) });
    }
    const received = new Map<string, number>();
    const consumers = await Promise.all(
      ['first', 'second'].map((durable) =>
        bus.consume({
          stream,
          durable,
          filterSubject: `${producer}.>`,
          ackWaitMs: 1_000,
          batchHandler: async (messages) => {
            received.set(durable, (received.get(durable) ?? 0) + messages.length);
            await Promise.all(messages.map((message) => message.ack()));
          },
          handler: async (message) => {
            received.set(durable, (received.get(durable) ?? 0) + 1);
            await message.ack();
          },
        }),
      ),
    );
    await waitFor(() => received.get('first') === 20 && received.get('second') === 20, {
      description: 'both durables to receive all twenty',
    });
    // Stopped before the event loop's next check phase could send the last acks: stop() sends them.
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await bus.close();

    for (const durable of ['first', 'second']) {
      await waitFor(
        async () => {
          const info = await jsm.consumers.info(stream, durable);
          return info.num_ack_pending === 0 && info.num_pending === 0 && info.ack_floor.stream_seq === 20;
        },
        { description: `${durable}'s acks to be recorded` },
      );
    }
    // Past the ack wait nothing comes back.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const durable of ['first', 'second']) {
      const info = await jsm.consumers.info(stream, durable);
      expect({ redelivered: info.num_redelivered, ackPending: info.num_ack_pending }).toEqual({
        redelivered: 0,
        ackPending: 0,
      });
    }
  });
});
