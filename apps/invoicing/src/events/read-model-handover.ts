import type { ReadModelSender } from '@billing/read-model-client';
import { DRAFT_LINE_EVENT_TYPES } from '@billing/reference-data';
import { type CommittedEventsListener, forwardCommittedEvents } from '@billing/runtime';

/**
 * Hands the draft line events of each committed change to the accounts service, whose read model
 * embeds an account's draft lines in its reads, so a client reads its write back at once. The
 * events reach accounts through JetStream as well; its inbox applies each once. Failures are
 * logged and swallowed (forwardCommittedEvents).
 */
export function draftLineHandOver(
  sender: Pick<ReadModelSender, 'send'>,
  logger: { warn(details: object, message: string): void },
): CommittedEventsListener {
  return forwardCommittedEvents({
    eventTypes: DRAFT_LINE_EVENT_TYPES,
    send: (envelopes, context) => sender.send(envelopes, context),
    logger,
  });
}
