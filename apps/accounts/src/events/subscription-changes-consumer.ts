import type { Clock } from '@billing/clock';
import { type EventEnvelope, type EventsLogger, type RunningConsumer, subjectFor } from '@billing/events';
import { encodeMessage, subscriptionEventsV1, subscriptionsV1 } from '@billing/proto';
import { recordExpiredSubscriptionCharges, recordExpiredSubscriptionsCharges } from '../db/account-charge-store.js';
import { recordSubscriptionState, recordSubscriptionStates } from '../db/account-subscription-store.js';
import { chargeIdsOf, InvalidSubscriptionEvent, subscriptionStateOf } from '../domain/subscription-state.js';
import { type ReadModelConsumerOptions, startReadModelConsumer } from './read-model-consumer.js';
import {
  type ApplyReadModelEvent,
  type ApplyReadModelEvents,
  loggedReadModelBatchHandler,
  loggedReadModelHandler,
  type OutcomeLog,
  payloadOfType,
  type ReadModelBatchHandler,
  type ReadModelHandler,
} from './read-model-handler.js';

const SUBSCRIPTIONS_PRODUCER = 'subscriptions';
const SUBSCRIPTION_CHANGED = 'subscription.changed';
export const SUBSCRIPTION_CHANGED_PAYLOAD = 'billing.events.v1.SubscriptionChanged';

/**
 * The durable consumer's name for a service schema: `accounts-subscription-changes` in production,
 * where every replica shares it (each event handled by one of them), and one per throwaway schema
 * in tests, so test platforms sharing a NATS server do not take each other's events.
 */
export function subscriptionChangesConsumerName(schema: string): string {
  return `${schema}-subscription-changes`;
}

/**
 * Keeps account_subscription up to date from `subscriptions.subscription.changed`: each event
 * carries the subscription's full state after the change, so the model needs no history, only
 * the latest state per subscription (states of a version not greater than the stored one are
 * ignored).
 */
export function startSubscriptionChangesConsumer(options: ReadModelConsumerOptions): Promise<RunningConsumer> {
  return startReadModelConsumer(options, {
    defaultProducer: SUBSCRIPTIONS_PRODUCER,
    filterSubject: (producer) => subjectFor(producer, SUBSCRIPTION_CHANGED),
    handle: subscriptionChangedHandler(options),
    handleBatch: subscriptionChangedBatchHandler(options),
  });
}

const LOG: OutcomeLog = {
  fields: (envelope) => ({ event_id: envelope.event_id, subscription: envelope.aggregate_id }),
  otherOrganization: 'subscription event names a subscription of another organization; ignored',
  applied: 'subscription event applied',
};

/** subscription.changed events applied and logged, for both delivery paths (read-model-handler.ts). */
export function subscriptionChangedHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelHandler {
  return loggedReadModelHandler(options, applySubscriptionChanged, LOG);
}

/** subscriptionChangedHandler for a batch: the same rows in a few statements (recordLatestStates). */
export function subscriptionChangedBatchHandler(options: {
  clock: Clock;
  logger: EventsLogger;
}): ReadModelBatchHandler {
  return loggedReadModelBatchHandler(options, applySubscriptionsChanged, LOG);
}

/**
 * What one `subscription.changed` envelope stores. A payload this model cannot use throws
 * InvalidSubscriptionEvent: startConsumer retries it a few times, then sets it aside as poison
 * and logs it.
 */
function subscriptionChangeOf(envelope: EventEnvelope) {
  const bytes = payloadOfType(envelope, SUBSCRIPTION_CHANGED_PAYLOAD, InvalidSubscriptionEvent);
  const payload = subscriptionEventsV1.SubscriptionChanged.decode(bytes);
  const state = subscriptionStateOf(envelope.organization_id, payload.subscription);
  return {
    state,
    // Re-encoded from the decoded message: the snapshot is exactly the Subscription, nothing else of the event.
    snapshot: encodeMessage(subscriptionsV1.Subscription, payload.subscription!),
    charges: {
      organizationId: state.organizationId,
      accountId: state.accountId,
      subscriptionId: state.subscriptionId,
      ids: chargeIdsOf(payload.charges),
    },
  };
}

/** One `subscription.changed` envelope applied in the consumer's transaction. */
const applySubscriptionChanged: ApplyReadModelEvent = async (em, envelope, now) => {
  const change = subscriptionChangeOf(envelope);
  // Even when this state is older than the stored one: a charge named stays until confirmed invoiced.
  await recordExpiredSubscriptionCharges(em, change.charges, now);
  return recordSubscriptionState(em, change.state, change.snapshot, now);
};

/** A batch of them: the charges they name in one statement, then their states (recordSubscriptionStates). */
const applySubscriptionsChanged: ApplyReadModelEvents = async (em, envelopes, now) => {
  const changes = envelopes.map(subscriptionChangeOf);
  await recordExpiredSubscriptionsCharges(
    em,
    changes.map((change) => change.charges),
    now,
  );
  return recordSubscriptionStates(em, changes, now);
};
