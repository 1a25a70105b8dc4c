import { type CommittedEventsListener, forwardCommittedEvents } from '@billing/runtime';
import type { ReadModelSender } from './accounts-read-model.js';

/**
 * The direct path of a producer's committed events to the accounts read models, as runChange's
 * `committedEvents` listener: the events of `eventTypes` (those the read models' stream consumers
 * read) go to ReadModelService.ApplyEvents over `sender`, with the change's context as call
 * metadata (accounts applies them for the organization it names), so an account read right after
 * a write shows it. The events reach accounts through JetStream as well, and its inbox applies
 * each once; so a failure here is logged and swallowed (forwardCommittedEvents).
 */
export function readModelHandOver(
  sender: Pick<ReadModelSender, 'send'>,
  eventTypes: readonly string[],
  logger: { warn(details: object, message: string): void },
): CommittedEventsListener {
  return forwardCommittedEvents({
    eventTypes,
    send: (envelopes, context) => sender.send(envelopes, context),
    logger,
  });
}
