import { type Clock, systemClock } from '@billing/clock';
import { executeBound, inTransaction, pgArray } from '@billing/db';
import { markFailed, runWithContext, type Span } from '@billing/observability';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { DeliveredMessage, EventBus, RunningConsumer } from '../bus/event-bus.js';
import { decodeEnvelope, type EventEnvelope } from '../envelope/envelope-codec.js';
import { producerOf, streamNameFor } from '../envelope/subjects.js';
import { InboxMessage } from '../inbox/inbox-message.entity.js';
import type { EventsLogger } from '../support/logger.js';
import { consumeInSpan } from '../support/message-tracing.js';
import { isTransientFailure } from './classify-failure.js';

export interface StartConsumerOptions {
  orm: MikroORM;
  bus: EventBus;
  /** Durable consumer name, also the inbox key, e.g. `analytics-account-activity` ([A-Za-z0-9_-]: no dots). */
  consumer: string;
  /** Stream of the producing service, e.g. `ACCOUNTS`. */
  stream: string;
  /** e.g. `accounts.account.*`. */
  filterSubject: string;
  /** Applies the event; runs in the transaction that also records it in the inbox. */
  handle: (em: EntityManager, envelope: EventEnvelope) => Promise<void>;
  logger: EventsLogger;
  /** Stamps inbox rows' processed_at. */
  clock?: Clock;
  /** Deliveries of a message whose handler keeps failing non-transiently before it is set aside (default 5). */
  maxAttempts?: number;
  /** Delay before redelivering after a failure (default: 1 s doubling up to 60 s). */
  retryDelayMs?: (deliveryCount: number) => number;
  ackWaitMs?: number;
  /**
   * Told of an event about to be set aside because its handler keeps failing, so the service can
   * record it (and whoever waits for its effect can stop waiting). When it fails, the event is
   * retried instead, and set aside at a later delivery.
   */
  onPoison?: (envelope: EventEnvelope, error: unknown) => Promise<void>;
  /**
   * Handle the messages that arrived together (while the previous ones were being handled) in one
   * transaction, each with its inbox row, instead of one transaction each: fewer commits and
   * acknowledgement waits when events come fast, the same effects. When the batch fails, each of
   * its messages is handled again on its own, so only a failing one is retried or set aside. The
   * handler must not rely on the EntityManager's identity map across events (it is cleared between them).
   */
  batch?: boolean;
  /**
   * With `batch`: applies a whole batch at once instead of calling `handle` per event, in the same
   * one transaction, after the batch's inbox rows were inserted with one statement. It is given
   * the events not handled before (each once, in delivery order) and may write them all with one
   * flush. When the batch fails, each message is handled again on its own through `handle`, so
   * the two must have the same effects.
   *
   * It may call `admitNext` once nothing it does afterwards can be overtaken by the next batch
   * (which then starts its own transaction meanwhile; EventBus batchHandler). A batch that fails
   * after admitting the next is handled again one by one, after that one started: rare, and the
   * handler must accept it (invoicing: those charges' numbers come after the next batch's).
   */
  handleBatch?: (em: EntityManager, envelopes: readonly EventEnvelope[], admitNext: () => void) => Promise<void>;
  /** With `batch`: messages per pull, the most a batch holds (EventBus ConsumeRequest.fetchSize). */
  fetchSize?: number;
  /** Where the durable starts if this creates it (EventBus ConsumeRequest.deliverFrom; default `first`). */
  deliverFrom?: 'first' | 'new';
  /**
   * Events the handler would do nothing with: acknowledged at once, without a transaction or an
   * inbox row. Decide from the event alone (and `delivery.storedAt`, when the bus stored it), so
   * that a redelivery is decided the same way and nothing is done twice; a decision from stored
   * state needs its own argument (accounts' ignoredByWebhooks has one). An event it throws on goes
   * to the handler as any other.
   */
  ignore?: (envelope: EventEnvelope, delivery: { storedAt: Date }) => boolean;
}

const defaultRetryDelay = (deliveryCount: number): number => Math.min(60_000, 1_000 * 2 ** (deliveryCount - 1));

/**
 * Consumes another service's events exactly once in effect: each message is handled in one
 * transaction with the insert of its inbox row, and acknowledged only after that commits. A
 * redelivery finds the inbox row and is acknowledged without running the handler again.
 *
 * Transient failures (database or dependency unavailable, lost races) are nakked with a growing
 * delay for as long as they last. A message that cannot be decoded, or whose handler keeps failing
 * otherwise for `maxAttempts` deliveries, is terminated and logged as poison: it stops coming
 * back, and the log says which event needs attention.
 */
export async function startConsumer(options: StartConsumerOptions): Promise<RunningConsumer> {
  const producer = producerOf(options.filterSubject);
  if (streamNameFor(producer) !== options.stream) {
    throw new Error(`Subject filter "${options.filterSubject}" is not in stream ${options.stream}`);
  }
  if (options.fetchSize !== undefined && !(Number.isInteger(options.fetchSize) && options.fetchSize > 0)) {
    throw new Error(`fetchSize must be a positive integer, not ${options.fetchSize}`);
  }
  // The consumer may start before the producer ever ran: creating the stream is idempotent.
  await options.bus.ensureStream(producer);
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;

  // Each message in a consumer span, a child of its publish span when its headers carry one.
  const handleMessage = (message: DeliveredMessage): Promise<void> =>
    consumeInSpan(message, options.consumer, (span) => handleTracedMessage(message, span));

  const ignored = (envelope: EventEnvelope, message: DeliveredMessage): boolean => {
    try {
      return options.ignore?.(envelope, { storedAt: message.storedAt }) ?? false;
    } catch {
      return false;
    }
  };

  const ackIgnored = (message: DeliveredMessage, envelope: EventEnvelope): Promise<void> =>
    message.ack().catch((error: unknown) => {
      // Nothing was done with it: the redelivery is ignored again.
      options.logger.warn(
        { consumer: options.consumer, subject: message.subject, event_id: envelope.event_id, err: error },
        'ack of an ignored event failed',
      );
    });

  const handleTracedMessage = async (message: DeliveredMessage, span: Span): Promise<void> => {
    const log = { consumer: options.consumer, subject: message.subject, message_id: message.messageId };
    let envelope: EventEnvelope;
    try {
      envelope = decodeEnvelope(message.data);
    } catch (error) {
      markFailed(span, error);
      options.logger.error({ ...log, err: error }, 'poison event: cannot decode envelope; terminated');
      await message.term();
      return;
    }
    if (ignored(envelope, message)) {
      await ackIgnored(message, envelope);
      return;
    }
    await runWithContext(contextOf(envelope), async () => {
      let handled: boolean;
      try {
        handled = await handleOnce(options, envelope);
      } catch (error) {
        markFailed(span, error);
        await settleFailure(message, envelope, error, { ...log, event_id: envelope.event_id });
        return;
      }
      try {
        await message.ack();
      } catch (error) {
        // Committed but not acked: the redelivery will find the inbox row and be acked then.
        options.logger.warn({ ...log, event_id: envelope.event_id, err: error }, 'ack failed after commit');
      }
      if (!handled) options.logger.debug({ ...log, event_id: envelope.event_id }, 'event already handled; acked');
    });
  };

  const settleFailure = async (
    message: DeliveredMessage,
    envelope: EventEnvelope,
    error: unknown,
    log: Record<string, unknown>,
  ) => {
    const transient = isTransientFailure(error);
    const deliveries = message.deliveryCount;
    if (!transient && deliveries >= maxAttempts && (await poisonRecorded(envelope, error, log))) {
      options.logger.error({ ...log, deliveries, err: error }, 'poison event: handler keeps failing; terminated');
      await message.term();
      return;
    }
    const delayMs = retryDelay(deliveries);
    options.logger.warn(
      { ...log, deliveries, transient, delay_ms: delayMs, err: error },
      'event handling failed; will retry',
    );
    await message.nak(delayMs);
  };

  const poisonRecorded = async (envelope: EventEnvelope, error: unknown, log: Record<string, unknown>) => {
    if (!options.onPoison) return true;
    try {
      await options.onPoison(envelope, error);
      return true;
    } catch (recordError) {
      options.logger.warn({ ...log, err: recordError }, 'recording a poison event failed; will retry the event');
      return false;
    }
  };

  const handleMessages = async (messages: readonly DeliveredMessage[], admitNext: () => void): Promise<void> => {
    if (messages.length === 1) return handleMessage(messages[0]!);
    const decoded: Array<{ message: DeliveredMessage; envelope: EventEnvelope }> = [];
    const ignoredNow: Array<Promise<void>> = [];
    for (const message of messages) {
      let envelope: EventEnvelope;
      try {
        envelope = decodeEnvelope(message.data);
      } catch {
        // handleMessage reports it and terminates it.
        await handleMessage(message);
        continue;
      }
      if (ignored(envelope, message)) ignoredNow.push(ackIgnored(message, envelope));
      else decoded.push({ message, envelope });
    }
    await Promise.all(ignoredNow);
    if (decoded.length === 0) return;
    if (decoded.length === 1) return handleMessage(decoded[0]!.message);
    try {
      await inTransaction(options.orm, async (em) => {
        const handleBatch = options.handleBatch;
        if (handleBatch) {
          const fresh = await insertInboxRows(
            options,
            em,
            decoded.map(({ envelope }) => envelope),
          );
          if (fresh.length === 0) return;
          // A span per message, each in its own trace, covering the batch it was handled in; what
          // the batch writes (its outbox rows) is not in any of them, so its events start new traces.
          const messages = new Map(decoded.map(({ message, envelope }) => [envelope.event_id, message]));
          let batchDone!: () => void;
          let batchFailed!: (error: unknown) => void;
          const batch = new Promise<void>((resolve, reject) => {
            batchDone = resolve;
            batchFailed = reject;
          });
          const spans = fresh.flatMap((envelope) => {
            const message = messages.get(envelope.event_id);
            return message ? [consumeInSpan(message, options.consumer, () => batch).catch(() => undefined)] : [];
          });
          try {
            await handleBatch(em, fresh, admitNext);
            batchDone();
          } catch (error) {
            batchFailed(error);
            throw error;
          } finally {
            await Promise.all(spans);
          }
          return;
        }
        for (const { message, envelope } of decoded) {
          // A span per message (not one per batch), so each event stays in its own trace.
          await consumeInSpan(message, options.consumer, async () => {
            await runWithContext(contextOf(envelope), () => applyEventOnce(options, em, envelope, options.handle));
            // Written before the next event, which starts from the database, not from this one's entities.
            await em.flush();
          });
          em.clear();
        }
      });
    } catch (error) {
      options.logger.debug(
        { consumer: options.consumer, err: error, count: decoded.length },
        'batch failed; one by one',
      );
      for (const { message } of decoded) await handleMessage(message);
      return;
    }
    await Promise.all(
      decoded.map(({ message, envelope }) =>
        message.ack().catch((error: unknown) => {
          // Committed but not acked: the redelivery will find the inbox row and be acked then.
          options.logger.warn(
            { consumer: options.consumer, subject: message.subject, event_id: envelope.event_id, err: error },
            'ack failed after commit',
          );
        }),
      ),
    );
  };

  return options.bus.consume({
    stream: options.stream,
    durable: options.consumer,
    filterSubject: options.filterSubject,
    handler: handleMessage,
    ...(options.batch ? { batchHandler: handleMessages } : {}),
    ...(options.ackWaitMs === undefined ? {} : { ackWaitMs: options.ackWaitMs }),
    ...(options.fetchSize === undefined ? {} : { fetchSize: options.fetchSize }),
    ...(options.deliverFrom === undefined ? {} : { deliverFrom: options.deliverFrom }),
  });
}

/** The request context an event's handling runs in (its logs name the request that caused it). */
const contextOf = (envelope: EventEnvelope) => ({
  requestId: envelope.request_id || envelope.event_id,
  organizationId: envelope.organization_id,
});

/** Inbox row and effects in one transaction; false when the inbox shows it was handled before. */
function handleOnce(options: StartConsumerOptions, envelope: EventEnvelope): Promise<boolean> {
  return handleEventOnce(options, envelope, options.handle);
}

/**
 * Applies an event once per consumer: its inbox row and its effects in one transaction, nothing
 * when the inbox shows the consumer handled it before. Used by the durable consumers and by any
 * other path that delivers the same events (a producer handing them over right after its commit),
 * so whichever path comes first applies the event and the other finds it done.
 */
export function handleEventOnce(
  options: { orm: MikroORM; consumer: string; clock?: Clock },
  envelope: EventEnvelope,
  handle: (em: EntityManager, envelope: EventEnvelope) => Promise<void>,
): Promise<boolean> {
  return inTransaction(options.orm, (em) => applyEventOnce(options, em, envelope, handle));
}

/**
 * Applies events once per consumer as one batch, as a batch consumer with `handleBatch` does: their
 * inbox rows with one statement and `handleBatch` for the ones not handled before (each once, in
 * the given order), in one transaction. Returns those.
 */
export function handleEventsOnce(
  options: { orm: MikroORM; consumer: string; clock?: Clock },
  envelopes: readonly EventEnvelope[],
  handleBatch: (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>,
): Promise<EventEnvelope[]> {
  return inTransaction(options.orm, async (em) => {
    const fresh = await insertInboxRows(options, em, envelopes);
    if (fresh.length > 0) await handleBatch(em, fresh);
    return fresh;
  });
}

/**
 * In the caller's transaction: the inbox rows of a batch in one statement. Returns the events whose
 * row was new (each event once, in the given order): the others were handled before, or are a
 * redelivery of one earlier in the batch. A concurrent transaction inserting one of the same rows
 * makes this one wait for it, then skip the event.
 */
async function insertInboxRows(
  options: { consumer: string; clock?: Clock },
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
): Promise<EventEnvelope[]> {
  const fresh = await recordInboxRows(
    em,
    envelopes.map((envelope) => ({ consumer: options.consumer, envelope })),
    options.clock,
  );
  return fresh.map(({ envelope }) => envelope);
}

/** An event for one consumer's inbox. */
export interface InboxEntry {
  consumer: string;
  envelope: EventEnvelope;
}

/**
 * In the caller's transaction: the inbox rows of events for one or more consumers in one statement
 * (a producer handing over a list of events that several consumers take). Returns the entries
 * whose row was new, each (consumer, event) once, in the given order; the caller applies exactly
 * those, so whichever path (the durable consumer or the hand-over) comes first applies an event
 * and the other finds it done. A concurrent transaction inserting one of the same rows makes this
 * one wait for it, then skip the entry.
 */
export async function recordInboxRows(
  em: EntityManager,
  entries: readonly InboxEntry[],
  clock: Clock = systemClock,
): Promise<InboxEntry[]> {
  const keyOf = (consumer: string, eventId: string) => `${consumer}\u0000${eventId.toLowerCase()}`;
  const firstOf = new Map<string, InboxEntry>();
  for (const entry of entries) {
    const key = keyOf(entry.consumer, entry.envelope.event_id);
    if (!firstOf.has(key)) firstOf.set(key, entry);
  }
  if (firstOf.size === 0) return [];
  const processedAt = clock.now();
  const unique = [...firstOf.values()];
  // One bound statement (executeBound) whatever the batch: three arrays, not three values a row.
  const { rows: inserted } = await executeBound<{ consumer: string; message_id: string }>(
    em,
    `insert into inbox (consumer, message_id, processed_at)
     select consumer, message_id, ?::timestamptz
       from unnest(?::text[], ?::uuid[]) with ordinality as k(consumer, message_id, n)
      order by n
     on conflict (consumer, message_id) do nothing
     returning consumer, message_id`,
    [
      processedAt,
      pgArray(unique.map(({ consumer }) => consumer)),
      pgArray(unique.map(({ envelope }) => envelope.event_id)),
    ],
    { prepared: true },
  );
  const fresh = new Set(inserted.map((row) => keyOf(row.consumer, row.message_id)));
  return unique.filter(({ consumer, envelope }) => fresh.has(keyOf(consumer, envelope.event_id)));
}

/** In the caller's transaction: the inbox row, then the effects; false when the inbox already had it. */
async function applyEventOnce(
  options: { consumer: string; clock?: Clock },
  em: EntityManager,
  envelope: EventEnvelope,
  handle: (em: EntityManager, envelope: EventEnvelope) => Promise<void>,
): Promise<boolean> {
  // A concurrent redelivery blocks on this row until the first transaction ends, then skips.
  const inserted = await em
    .createQueryBuilder(InboxMessage)
    .insert({
      consumer: options.consumer,
      messageId: envelope.event_id,
      processedAt: (options.clock ?? systemClock).now(),
    })
    .onConflict(['consumer', 'messageId'])
    .ignore()
    .execute('run');
  if (inserted.affectedRows === 0) return false;
  await handle(em, envelope);
  return true;
}
