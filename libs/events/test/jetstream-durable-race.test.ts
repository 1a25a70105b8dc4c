/**
 * Two processes making the same durable at once (a start resuming it from the stream's first
 * message while another replica opens it for new messages): both may look, find none and add it,
 * with different deliver policies. The one whose add comes second uses the durable that now
 * exists instead of failing (JetStream refuses an add that differs from the existing one).
 */
import { testNatsUrl, uniqueName } from '@billing/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, expect, it } from 'vitest';
import { JetStreamBus, type RunningConsumer, streamNameFor } from '../src/index.js';

const producer = uniqueName('durable_race');
const stream = streamNameFor(producer);

afterAll(async () => {
  const nc = await connect({ servers: testNatsUrl() });
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => false);
  await nc.close();
});

it('lets the second of two processes adding one durable with different deliver policies use it', async () => {
  const buses = await Promise.all(
    [1, 2].map(() => JetStreamBus.connect({ servers: testNatsUrl(), name: 'durable-race-test' })),
  );
  const running: RunningConsumer[] = [];
  try {
    await buses[0]!.ensureStream(producer);
    await buses[0]!.publish({ subject: `${producer}.thing.created`, messageId: 'old', data: new Uint8Array([1]) });
    for (let round = 0; round < 10; round++) {
      const durable = `race-${round}`;
      const started = await Promise.all(
        (['first', 'new'] as const).map((deliverFrom, index) =>
          buses[index]!.consume({
            stream,
            durable,
            filterSubject: `${producer}.>`,
            deliverFrom,
            handler: (message) => message.ack(),
          }),
        ),
      );
      running.push(...started);
      expect(await buses[1]!.durableExists(stream, durable)).toBe(true);
    }
  } finally {
    for (const consumer of running) await consumer.stop();
    for (const bus of buses) await bus.close();
  }
});
