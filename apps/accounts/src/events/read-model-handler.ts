import type { Clock } from '@billing/clock';
import type { EventEnvelope, EventsLogger } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RecordOutcome } from '../db/latest-state-store.js';

/** What a read model does with one event, in the caller's (inbox) transaction. */
export type ReadModelHandler = (em: EntityManager, envelope: EventEnvelope) => Promise<void>;

/** Stores one event's state in the read model, in the caller's transaction, and says what that did. */
export type ApplyReadModelEvent = (em: EntityManager, envelope: EventEnvelope, now: Date) => Promise<RecordOutcome>;

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
    const outcome = await apply(em, envelope, options.clock.now());
    const fields = { ...log.fields(envelope), outcome };
    if (outcome === 'other-organization') {
      options.logger.warn(fields, log.otherOrganization);
    } else {
      options.logger.debug(fields, log.applied);
    }
  };
}
