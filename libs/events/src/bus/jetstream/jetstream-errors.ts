import { JetStreamApiCodes, JetStreamApiError, JetStreamError } from '@nats-io/jetstream';

/** A JetStream API answer with this error code (e.g. ConsumerNotFound, StreamNotFound). */
export function isApiError(error: unknown, code: JetStreamApiCodes): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/** A pull that got no answer: "heartbeats missed" (JetStreamError) or a 503 status (no responders). */
export function isPullUnanswered(error: unknown): boolean {
  return (
    error instanceof JetStreamError &&
    (/heartbeats missed/i.test(error.message) || (error as { code?: unknown }).code === 503)
  );
}

/** The durable is gone: the API says so, or a pull was ended with "consumer deleted" (409). */
export function isConsumerMissing(error: unknown): boolean {
  return (
    isApiError(error, JetStreamApiCodes.ConsumerNotFound) ||
    (error instanceof Error && /consumer (not found|deleted)/i.test(error.message))
  );
}
