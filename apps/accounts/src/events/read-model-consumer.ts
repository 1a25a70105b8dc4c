import type { Clock } from '@billing/clock';
import { type EventBus, type EventsLogger, type RunningConsumer, startConsumer, streamNameFor } from '@billing/events';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { HandedOverEvents } from '../use-cases/handed-over-events.js';
import type { ReadModelBatchHandler, ReadModelHandler } from './read-model-handler.js';

/** How the caller runs a read model's durable consumer; the same for every read model. */
export interface ReadModelConsumerOptions {
  orm: MikroORM;
  bus: EventBus;
  logger: EventsLogger;
  /** Stamps the rows' updated_at and the inbox rows. */
  clock: Clock;
  /** Durable consumer name, also the inbox key (the read model's `…ChangesConsumerName(schema)`). */
  consumer: string;
  /** The publishing service; tests use a throwaway one for an isolated stream. */
  producer?: string;
  retryDelayMs?: (deliveryCount: number) => number;
  ackWaitMs?: number;
  /** The events this process's hand-overs applied (or found applied) under this consumer's name. */
  handedOver?: HandedOverEvents;
}

/** What one read model's events are: the rest of its durable consumer is shared. */
export interface ReadModelEvents {
  /** The service publishing them, unless the caller names another. */
  defaultProducer: string;
  /** The subjects to take from the producer's stream. */
  filterSubject: (producer: string) => string;
  handle: ReadModelHandler;
  /** The same effects as `handle` on each event, in order, for a batch (a failed batch is retried one by one). */
  handleBatch: ReadModelBatchHandler;
}

/** Starts a read model's durable consumer on its producer's stream. */
export function startReadModelConsumer(
  options: ReadModelConsumerOptions,
  events: ReadModelEvents,
): Promise<RunningConsumer> {
  const producer = options.producer ?? events.defaultProducer;
  const handedOver = options.handedOver;
  return startConsumer({
    orm: options.orm,
    bus: options.bus,
    logger: options.logger,
    clock: options.clock,
    consumer: options.consumer,
    stream: streamNameFor(producer),
    filterSubject: events.filterSubject(producer),
    handle: events.handle,
    // The events that arrived together are applied in one transaction, set-based.
    batch: true,
    handleBatch: events.handleBatch,
    // A copy whose inbox row this process saw committed by a hand-over is acknowledged without a
    // transaction: all the inbox would have done with it (use-cases/handed-over-events.ts).
    ...(handedOver ? { ignore: (envelope) => handedOver.takeDone(options.consumer, envelope.event_id) } : {}),
    // Passed only when set, so that startConsumer's own defaults apply otherwise.
    ...(options.retryDelayMs ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.ackWaitMs === undefined ? {} : { ackWaitMs: options.ackWaitMs }),
  });
}
