import { JetStreamError } from '@nats-io/jetstream';
import { errors } from '@nats-io/transport-node';

/** The event bus did not answer (in time, or at all): the operation may succeed when retried. */
export class EventBusUnavailableError extends Error {
  override readonly name = 'EventBusUnavailableError';
}

/**
 * What the NATS client throws when the server cannot be reached or does not answer in time. Not
 * RequestError: it wraps any failed request (a permission violation too); the walk through
 * `cause` reaches the timeout or connection error it wraps.
 */
const NATS_UNREACHABLE = [
  errors.TimeoutError,
  errors.ConnectionError,
  errors.ClosedConnectionError,
  errors.DrainingConnectionError,
  errors.NoRespondersError,
];

/**
 * Whether an error (or one of its causes) means the bus was unreachable, as opposed to a fault
 * that a retry would meet again (a durable with another filter, a refused configuration): callers
 * answer the first "unavailable, retry" and the second as an internal error.
 */
export function isEventBusUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof EventBusUnavailableError) return true;
    if (NATS_UNREACHABLE.some((unreachable) => current instanceof unreachable)) return true;
    // JetStream's "temporarily unavailable" (status 503), e.g. while its cluster elects a leader.
    if (current instanceof JetStreamError && (current as { code?: unknown }).code === 503) return true;
    current = current.cause;
  }
  return false;
}
