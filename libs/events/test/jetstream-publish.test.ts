import { testNatsUrl, uniqueName } from '@billing/testing';
import { AckPolicy, type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamBus, streamNameFor } from '../src/index.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

let nc: NatsConnection;
let jsm: JetStreamManager;
const buses: JetStreamBus[] = [];
const streams: string[] = [];

beforeAll(async () => {
  nc = await connect({ servers: testNatsUrl() });
  jsm = await jetstreamManager(nc);
});
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close().catch(() => undefined);
});
afterAll(async () => {
  for (const name of streams) await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

async function busWithStream(publishTimeoutMs = 2_000): Promise<{ bus: JetStreamBus; producer: string }> {
  const bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'publish-test', publishTimeoutMs });
  buses.push(bus);
  const producer = uniqueName('pub');
  await bus.ensureStream(producer);
  streams.push(streamNameFor(producer));
  return { bus, producer };
}

/** What the stream stored: each message's Nats-Msg-Id, data and traceparent, in stream order. */
async function stored(producer: string): Promise<Array<{ id: string; text: string; traceparent?: string }>> {
  const stream = streamNameFor(producer);
  const { state } = await jsm.streams.info(stream);
  const inspector = await jsm.consumers.add(stream, { ack_policy: AckPolicy.None });
  const consumer = await jsm.jetstream().consumers.get(stream, inspector.name);
  const result: Array<{ id: string; text: string; traceparent?: string }> = [];
  if (state.messages === 0) return result;
  const batch = await consumer.fetch({ max_messages: state.messages, expires: 2_000 });
  for await (const message of batch) {
    const traceparent = message.headers?.get('traceparent');
    result.push({
      id: message.headers?.get('Nats-Msg-Id') ?? '',
      text: new TextDecoder().decode(message.data),
      ...(traceparent ? { traceparent } : {}),
    });
    if (result.length === state.messages) break;
  }
  return result;
}

describe('JetStreamBus.publish (core publish, acks on one reply subscription)', () => {
  it('resolves once the stream stored each message, with its id and trace headers', async () => {
    const { bus, producer } = await busWithStream();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

    await Promise.all([
      bus.publish({ subject: `${producer}.account.created`, messageId: 'm-1', data: encode('one') }),
      bus.publish({
        subject: `${producer}.account.updated`,
        messageId: 'm-2',
        data: encode('two'),
        headers: { traceparent },
      }),
    ]);

    expect(await stored(producer)).toEqual([
      { id: 'm-1', text: 'one' },
      { id: 'm-2', text: 'two', traceparent },
    ]);
  });

  it('resolves for a duplicate message id without storing it again', async () => {
    const { bus, producer } = await busWithStream();
    await bus.publish({ subject: `${producer}.account.created`, messageId: 'same', data: encode('original') });

    await bus.publish({ subject: `${producer}.account.created`, messageId: 'same', data: encode('retry') });

    expect(await stored(producer)).toEqual([{ id: 'same', text: 'original' }]);
  });

  it('rejects with the server error when the stream refuses the message', async () => {
    const { bus, producer } = await busWithStream();
    await bus.publish({ subject: `${producer}.account.created`, messageId: 'first', data: encode('first') });

    const refused = bus.publish({
      subject: `${producer}.account.updated`,
      messageId: 'second',
      data: encode('second'),
      previousMessageId: 'not-the-last',
    });

    await expect(refused).rejects.toMatchObject({
      name: 'JetStreamApiError',
      message: 'wrong last msg ID: first',
      code: 10070,
    });
    expect(await stored(producer)).toEqual([{ id: 'first', text: 'first' }]);
  });

  it('rejects as nats.js does when no stream takes the subject', async () => {
    const { bus } = await busWithStream();

    await expect(
      bus.publish({ subject: `${uniqueName('nostream')}.account.created`, messageId: 'x', data: encode('x') }),
    ).rejects.toMatchObject({ name: 'JetStreamNotEnabled', message: 'jetstream is not enabled' });
  });

  it('rejects with a timeout when no ack comes within the publish timeout', async () => {
    const { bus } = await busWithStream(300);
    // A plain subscriber takes the subject (so the server reports no "no responders") and never answers.
    const subject = `${uniqueName('silent')}.account.created`;
    const silent = nc.subscribe(subject);
    await nc.flush();
    const started = Date.now();

    try {
      await expect(bus.publish({ subject, messageId: 'lost', data: encode('lost') })).rejects.toMatchObject({
        name: 'TimeoutError',
        message: 'timeout',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      silent.unsubscribe();
    }
  });

  it('times out each of several publishes at its own deadline', async () => {
    const { bus } = await busWithStream(300);
    const subject = `${uniqueName('silent')}.account.created`;
    const silent = nc.subscribe(subject);
    await nc.flush();

    try {
      const failedAt = (publish: Promise<void>) =>
        publish.then(
          () => Number.NaN,
          () => Date.now(),
        );
      const first = failedAt(bus.publish({ subject, messageId: 'a', data: encode('a') }));
      await new Promise((resolve) => setTimeout(resolve, 150));
      const secondSent = Date.now();
      const second = failedAt(bus.publish({ subject, messageId: 'b', data: encode('b') }));
      const [firstFailed, secondFailed] = await Promise.all([first, second]);
      expect(secondFailed - secondSent).toBeGreaterThanOrEqual(290);
      expect(secondFailed - firstFailed).toBeGreaterThanOrEqual(100);
    } finally {
      silent.unsubscribe();
    }
  });

  it('rejects what waits for its ack when the bus closes, and any publish after', async () => {
    const { bus } = await busWithStream(5_000);
    const subject = `${uniqueName('silent')}.account.created`;
    const silent = nc.subscribe(subject);
    await nc.flush();

    try {
      const waiting = bus.publish({ subject, messageId: 'w', data: encode('w') });
      await bus.close();
      await expect(waiting).rejects.toMatchObject({ name: 'RequestError', message: 'connection closed' });
      await expect(bus.publish({ subject, messageId: 'late', data: encode('late') })).rejects.toMatchObject({
        name: 'ClosedConnectionError',
      });
    } finally {
      silent.unsubscribe();
    }
  });
});
