import type { ReadModelSender } from '@billing/read-model-client';
import { DRAFT_LINE_EVENT_TYPES } from '@billing/reference-data';
import { type CommittedEventsListener, forwardCommittedEvents } from '@billing/runtime';
import { INVOICE_EVENT_TYPES } from './invoice-events.js';

/**
 * Hands the draft line and invoice events of each committed change to the accounts service, whose
 * read models embed an account's draft lines in its reads and answer the account list's `balance`
 * filter and the delete rule, so a client reads its write back at once. The events reach accounts
 * through JetStream as well; its inbox applies each once. Failures are logged and swallowed
 * (forwardCommittedEvents).
 */
export function readModelHandOver(
  sender: Pick<ReadModelSender, 'send'>,
  logger: { warn(details: object, message: string): void },
): CommittedEventsListener {
  return forwardCommittedEvents({
    eventTypes: [...DRAFT_LINE_EVENT_TYPES, ...INVOICE_EVENT_TYPES],
    send: (envelopes, context) => sender.send(envelopes, context),
    logger,
  });
}
