import { uniqueName, waitFor } from '@billing/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsumeRequest, DeliveredMessage, EventBus, RunningConsumer } from '../../src/index.js';
import { streamNameFor } from '../../src/index.js';

interface Received {
  messageId: string;
  subject: string;
  text: string;
  deliveryCount: number;
  storedAt: Date;
  at: number;
}

/** Redelivery needs a short ack wait to be testable; 1 s is the shortest JetStream handles well. */
const ACK_WAIT_MS = 1_000;
const DELIVERY_TIMEOUT_MS = 10_000;

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * The delivery contract every EventBus adapter must keep, run against JetStream and the in-process
 * bus alike so `npm start` without NATS behaves like production.
 */
export function runEventBusContract(adapter: string, makeBus: () => Promise<EventBus>): void {
  describe(`${adapter} keeps the EventBus contract`, () => {
    let bus: EventBus;
    let producer: string;
    let stream: string;
    const running: RunningConsumer[] = [];

    beforeEach(async () => {
      bus = await makeBus();
      producer = uniqueName('contract');
      stream = streamNameFor(producer);
      await bus.ensureStream(producer);
    });
    afterEach(async () => {
      for (const consumer of running.splice(0)) await consumer.stop();
      await bus.close();
    });

    const subject = (eventType: string): string => `${producer}.${eventType}`;
    const publish = (eventType: string, messageId: string, text = messageId): Promise<void> =>
      bus.publish({ subject: subject(eventType), messageId, data: encode(text) });

    async function consume(
      durable: string,
      settle: (message: DeliveredMessage) => Promise<void> = (message) => message.ack(),
      options: Partial<Pick<ConsumeRequest, 'filterSubject' | 'maxDeliver' | 'deliverFrom'>> = {},
    ): Promise<{ received: Received[]; consumer: RunningConsumer }> {
      const received: Received[] = [];
      const consumer = await bus.consume({
        stream,
        durable,
        filterSubject: options.filterSubject ?? `${producer}.>`,
        ackWaitMs: ACK_WAIT_MS,
        ...(options.maxDeliver ? { maxDeliver: options.maxDeliver } : {}),
        ...(options.deliverFrom ? { deliverFrom: options.deliverFrom } : {}),
        handler: async (message) => {
          received.push({
            messageId: message.messageId,
            subject: message.subject,
            text: new TextDecoder().decode(message.data),
            deliveryCount: message.deliveryCount,
            storedAt: message.storedAt,
            at: Date.now(),
          });
          await settle(message);
        },
      });
      running.push(consumer);
      return { received, consumer };
    }

    const receivedAtLeast = (received: Received[], count: number, description: string) =>
      waitFor(() => received.length >= count, { timeoutMs: DELIVERY_TIMEOUT_MS, description });

    it('delivers published messages in order with their id, subject and data', async () => {
      await publish('account.created', 'm-1', 'first');
      await publish('account.updated', 'm-2', 'second');
      const { received } = await consume('reader');

      await receivedAtLeast(received, 2, 'two deliveries');

      expect(
        received.map(({ messageId, subject, text, deliveryCount }) => ({ messageId, subject, text, deliveryCount })),
      ).toEqual([
        { messageId: 'm-1', subject: subject('account.created'), text: 'first', deliveryCount: 1 },
        { messageId: 'm-2', subject: subject('account.updated'), text: 'second', deliveryCount: 1 },
      ]);
    });

    it('tells when each message was stored, also on a redelivery', async () => {
      const before = Date.now();
      await publish('account.created', 'm-1');
      const between = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const later = Date.now();
      await publish('account.created', 'm-2');
      const after = Date.now();
      const { received } = await consume('stored', async (message) =>
        message.messageId === 'm-1' && message.deliveryCount === 1 ? message.nak() : message.ack(),
      );
      await receivedAtLeast(received, 3, 'both messages and the redelivery');
      // The bus's clock is this machine's here; JetStream keeps nanoseconds, read as whole ms.
      const storedAt = (id: string) => received.filter((m) => m.messageId === id).map((m) => m.storedAt.getTime());
      const [first, again] = storedAt('m-1');
      expect(first).toBeGreaterThanOrEqual(before - 1);
      expect(first).toBeLessThanOrEqual(between);
      expect(again).toBe(first);
      const [second] = storedAt('m-2');
      expect(second).toBeGreaterThanOrEqual(later - 1);
      expect(second).toBeLessThanOrEqual(after);
    });

    it('stores a message id once within the duplicate window', async () => {
      await publish('account.created', 'same-id', 'original');
      await publish('account.created', 'same-id', 'retry of the same event');
      await publish('account.created', 'next-id', 'next');
      const { received } = await consume('dedupe');

      await receivedAtLeast(received, 2, 'the original and the next message');

      // Delivery is in stream order, so a stored duplicate would have arrived before "next".
      expect(received.map((message) => message.text)).toEqual(['original', 'next']);
    });

    it('stores a message that names a previous one only right after it, and recognises a duplicate first', async () => {
      const follow = (messageId: string, previousMessageId: string) =>
        bus.publish({ subject: subject('account.updated'), messageId, data: encode(messageId), previousMessageId });
      // Sent together, without waiting in between, as the outbox relay does.
      await Promise.all([publish('account.created', 'p-1'), follow('p-2', 'p-1'), follow('p-3', 'p-2')]);
      await expect(follow('p-4', 'p-2')).rejects.toThrow(/wrong last msg ID: p-3/);
      // A redelivery of a stored message is a duplicate, whatever it names as previous.
      await follow('p-2', 'p-1');
      await follow('p-4', 'p-3');
      const { received } = await consume('follower');

      await receivedAtLeast(received, 4, 'the four stored messages');

      expect(received.map((message) => message.text)).toEqual(['p-1', 'p-2', 'p-3', 'p-4']);
    });

    it('redelivers a nakked message after the requested delay, counting deliveries', async () => {
      await publish('account.created', 'nakked');
      const { received } = await consume('nakker', (message) =>
        message.deliveryCount === 1 ? message.nak(300) : message.ack(),
      );

      await receivedAtLeast(received, 2, 'the redelivery');

      expect(received.map((message) => message.deliveryCount)).toEqual([1, 2]);
      expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(250);
    });

    it('redelivers an unsettled message after the ack wait, and never a termed one', async () => {
      await publish('account.created', 'poison');
      await publish('account.created', 'forgotten');
      const { received } = await consume('settler', async (message) => {
        if (message.messageId === 'poison') await message.term();
        else if (message.deliveryCount > 1) await message.ack();
        // First delivery of "forgotten": neither acked nor nakked, as if the process died.
      });

      await waitFor(() => received.some((m) => m.messageId === 'forgotten' && m.deliveryCount === 2), {
        timeoutMs: DELIVERY_TIMEOUT_MS,
        description: 'redelivery of the unsettled message',
      });

      // "poison" was delivered before "forgotten", so its ack wait has passed too: term held.
      expect(received.filter((m) => m.messageId === 'poison')).toHaveLength(1);
      expect(received.filter((m) => m.messageId === 'forgotten').map((m) => m.deliveryCount)).toEqual([1, 2]);
    });

    it('keeps a durable position across consumer restarts', async () => {
      await publish('account.created', 'before-1');
      await publish('account.created', 'before-2');
      const first = await consume('resumer');
      await receivedAtLeast(first.received, 2, 'the first two messages');
      await first.consumer.stop();

      await publish('account.created', 'after-1');
      const second = await consume('resumer');
      await receivedAtLeast(second.received, 1, 'the message published while stopped');

      expect(second.received.map((message) => message.messageId)).toEqual(['after-1']);
      // A different durable starts from the beginning of the stream.
      const other = await consume('newcomer');
      await receivedAtLeast(other.received, 3, 'the whole stream');
      expect(other.received.map((message) => message.messageId)).toEqual(['before-1', 'before-2', 'after-1']);
    });

    it('creates a durable for new messages after the last stored one; one that exists resumes where it stands', async () => {
      await publish('account.created', 'old-1');
      await publish('account.created', 'old-2');
      expect(await bus.durableExists(stream, 'late')).toBe(false);

      const late = await consume('late', undefined, { deliverFrom: 'new' });
      expect(await bus.durableExists(stream, 'late')).toBe(true);
      await publish('account.created', 'new-1');
      await receivedAtLeast(late.received, 1, 'the message stored after the durable was created');
      await late.consumer.stop();

      await publish('account.created', 'new-2');
      // Asked again for new messages only: the durable exists, so it resumes with what it missed.
      const again = await consume('late', undefined, { deliverFrom: 'new' });
      await receivedAtLeast(again.received, 1, 'the message stored while it was stopped');
      expect(late.received.map((message) => message.messageId)).toEqual(['new-1']);
      expect(again.received.map((message) => message.messageId)).toEqual(['new-2']);
      expect(await bus.durableExists(stream, 'never-consumed')).toBe(false);
    });

    it('refuses durable names JetStream would refuse', async () => {
      await expect(consume('analytics.accounts')).rejects.toThrow();
    });

    it('delivers only the subjects its filter matches', async () => {
      await publish('recipient.created', 'not-for-me');
      await publish('account.created', 'for-me');
      const { received } = await consume('filtered', undefined, { filterSubject: subject('account.*') });

      await receivedAtLeast(received, 1, 'the matching message');

      expect(received.map((message) => message.messageId)).toEqual(['for-me']);
    });
  });
}
