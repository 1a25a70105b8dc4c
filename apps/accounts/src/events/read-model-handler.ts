import type { Clock } from '@billing/clock';
import type { EventEnvelope, EventsLogger } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RecordOutcome } from '../db/latest-state-store.js';

/** What a read model does with one event, in the caller's (inbox) transaction. */
export type ReadModelHandler = (em: EntityManager, envelope: EventEnvelope) => Promise<void>;

/**
 * What a read model does with a batch of events, in the caller's (inbox) transaction: the same
 * effects as its ReadModelHandler applied to each, in order (a failed batch is retried one by one).
 */
export type ReadModelBatchHandler = (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>;

/** Stores one event's state in the read model, in the caller's transaction, and says what that did. */
export type ApplyReadModelEvent = (em: EntityManager, envelope: EventEnvelope, now: Date) => Promise<RecordOutcome>;

/** Stores a batch of events' states set-based, as one after the other; says what each did, in order. */
export type ApplyReadModelEvents = (
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
  now: Date,
) => Promise<RecordOutcome[]>;

/**
 * The envelope's payload bytes, once it carries `payloadType`. Any other type is an event this read
 * model cannot use, thrown as the domain's `Invalid` error like any other unusable payload.
 */
export function payloadOfType(
  envelope: EventEnvelope,
  payloadType: string,
  Invalid: new (message: string) => Error,
): Uint8Array {
  if (envelope.payload_type !== payloadType) {
    throw new Invalid(`Event ${envelope.event_id} carries ${envelope.payload_type}, not ${payloadType}`);
  }
  return envelope.payload;
}

/** How a read model's handler logs what each event did. */
export interface OutcomeLog {
  /** The log fields naming the event and its row (the outcome is added to them). */
  fields: (envelope: EventEnvelope) => Record<string, unknown>;
  /** Warned when the event names a row of another organization: a producer or tenancy bug to look into. */
  otherOrganization: string;
  /** Debug-logged for every other outcome. */
  applied: string;
}

/**
 * The handler the durable consumer runs for each event, in its inbox transaction; ApplyEvents
 * runs the same for the events a producer hands over directly (under the same inbox consumer
 * name). `apply` stores the event's state; this logs what it did.
 */
export function loggedReadModelHandler(
  options: { clock: Clock; logger: EventsLogger },
  apply: ApplyReadModelEvent,
  log: OutcomeLog,
): ReadModelHandler {
  return async (em, envelope) => {
    logOutcome(options.logger, log, envelope, await apply(em, envelope, options.clock.now()));
  };
}

/** loggedReadModelHandler for batches: `applyAll` stores them set-based; each event's outcome is logged. */
export function loggedReadModelBatchHandler(
  options: { clock: Clock; logger: EventsLogger },
  applyAll: ApplyReadModelEvents,
  log: OutcomeLog,
): ReadModelBatchHandler {
  return async (em, envelopes) => {
    const outcomes = await applyAll(em, envelopes, options.clock.now());
    for (const [index, envelope] of envelopes.entries()) logOutcome(options.logger, log, envelope, outcomes[index]!);
  };
}

function logOutcome(logger: EventsLogger, log: OutcomeLog, envelope: EventEnvelope, outcome: RecordOutcome): void {
  const fields = { ...log.fields(envelope), outcome };
  if (outcome === 'other-organization') {
    logger.warn(fields, log.otherOrganization);
  } else {
    logger.debug(fields, log.applied);
  }
}

/**
 * A batch handled event by event with `handle`, each written before the next starts from the
 * database (as startConsumer does without a batch handler): for a read model whose events are too
 * rare to be worth a set-based version (payment cards), so that it can share the batched paths.
 */
export function oneByOne(handle: ReadModelHandler): ReadModelBatchHandler {
  return async (em, envelopes) => {
    for (const envelope of envelopes) {
      await handle(em, envelope);
      await em.flush();
      em.clear();
    }
  };
}
