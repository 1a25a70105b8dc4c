import { encodeEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import type { CommittedEventsListener } from './run-change.js';

export interface ForwardCommittedEventsOptions {
  /** Event types the receiver reads (e.g. `subscription.changed`); the others are not sent. */
  eventTypes: readonly string[];
  /** Delivers the encoded envelopes (e.g. the accounts service's ReadModelService.ApplyEvents). */
  send: (envelopes: Uint8Array[], context: RequestContext) => Promise<void>;
  logger: { warn(details: object, message: string): void };
}

/**
 * Hands a committed change's events straight to the service whose read model they feed, so a
 * client reading right after its write sees it there. This is a shortcut, not the delivery: the
 * same events sit in the outbox and reach the receiver through JetStream, where its inbox makes
 * the second arrival a no-op. So a failure here is logged and swallowed; the read model is then
 * behind only until the relay and the consumer catch up.
 */
export function forwardCommittedEvents(options: ForwardCommittedEventsOptions): CommittedEventsListener {
  const wanted = new Set(options.eventTypes);
  return async (events, context) => {
    const forwarded = events.filter((event) => wanted.has(event.event_type));
    if (forwarded.length === 0) return;
    try {
      await options.send(forwarded.map(encodeEnvelope), context);
    } catch (error) {
      options.logger.warn(
        { err: error, events: forwarded.map((event) => event.event_id) },
        'could not hand committed events to their read model; the event stream will deliver them',
      );
    }
  };
}
