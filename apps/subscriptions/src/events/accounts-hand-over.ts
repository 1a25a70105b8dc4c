import type { ReadModelSender } from '@billing/read-model-client';
import { type CommittedEventsListener, forwardCommittedEvents } from '@billing/runtime';

/** The events the accounts read model is built from (its stream consumer reads the same subject). */
const READ_MODEL_EVENT_TYPES = ['subscription.changed'] as const;

/**
 * The direct path of subscription.changed to the accounts service's read model
 * (ReadModelService.ApplyEvents), so an account read right after a subscription write shows it.
 * The context travels as call metadata: accounts applies the envelopes for the organization it
 * names. Failures are only logged (see forwardCommittedEvents): the stream delivers the same events.
 */
export function subscriptionHandOver(
  sender: Pick<ReadModelSender, 'send'>,
  logger: { warn(details: object, message: string): void },
): CommittedEventsListener {
  return forwardCommittedEvents({
    eventTypes: READ_MODEL_EVENT_TYPES,
    send: (envelopes, context) => sender.send(envelopes, context),
    logger,
  });
}
