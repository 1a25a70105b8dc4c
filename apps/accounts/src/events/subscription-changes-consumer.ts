import type { Clock } from '@billing/clock';
import {
  type EventBus,
  type EventEnvelope,
  type EventsLogger,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
  subjectFor,
} from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type RecordOutcome, recordSubscriptionState } from '../db/account-subscription-store.js';
import { InvalidSubscriptionEvent, subscriptionStateOf } from '../domain/subscription-state.js';

export const SUBSCRIPTIONS_PRODUCER = 'subscriptions';
export const SUBSCRIPTION_CHANGED = 'subscription.changed';
const PAYLOAD_TYPE = 'billing.events.v1.SubscriptionChanged';

/**
 * The durable consumer's name for a service schema: `accounts-subscription-changes` in production,
 * where every replica shares it (each event handled by one of them), and one per throwaway schema
 * in tests, so test platforms sharing a NATS server do not take each other's events.
 */
export function subscriptionChangesConsumerName(schema: string): string {
  return `${schema}-subscription-changes`;
}

export interface SubscriptionChangesConsumerOptions {
  orm: MikroORM;
  bus: EventBus;
  logger: EventsLogger;
  /** Stamps the rows' updated_at and the inbox rows. */
  clock: Clock;
  /** Durable consumer name, also the inbox key (subscriptionChangesConsumerName). */
  consumer: string;
  /** The publishing service; tests use a throwaway one for an isolated stream. */
  producer?: string;
  retryDelayMs?: (deliveryCount: number) => number;
  ackWaitMs?: number;
}

/**
 * Keeps account_subscription up to date from `subscriptions.subscription.changed`: each event
 * carries the subscription's full state after the change, so the model needs no history, only
 * the latest state per subscription (older states arriving late are ignored).
 */
export function startSubscriptionChangesConsumer(
  options: SubscriptionChangesConsumerOptions,
): Promise<RunningConsumer> {
  const producer = options.producer ?? SUBSCRIPTIONS_PRODUCER;
  return startConsumer({
    orm: options.orm,
    bus: options.bus,
    logger: options.logger,
    clock: options.clock,
    consumer: options.consumer,
    stream: streamNameFor(producer),
    filterSubject: subjectFor(producer, SUBSCRIPTION_CHANGED),
    handle: async (em, envelope) => {
      const outcome = await applySubscriptionChanged(em, envelope, options.clock.now());
      const log = { event_id: envelope.event_id, subscription: envelope.aggregate_id, outcome };
      if (outcome === 'other-organization') {
        options.logger.warn(log, 'subscription event names a subscription of another organization; ignored');
      } else {
        options.logger.debug(log, 'subscription event applied');
      }
    },
    ...(options.retryDelayMs ? { retryDelayMs: options.retryDelayMs } : {}),
    ...(options.ackWaitMs === undefined ? {} : { ackWaitMs: options.ackWaitMs }),
  });
}

/**
 * One `subscription.changed` envelope applied in the consumer's transaction. A payload this model
 * cannot use throws InvalidSubscriptionEvent: startConsumer retries it a few times, then sets it
 * aside as poison and logs it.
 */
export async function applySubscriptionChanged(
  em: EntityManager,
  envelope: EventEnvelope,
  now: Date,
): Promise<RecordOutcome> {
  if (envelope.payload_type !== PAYLOAD_TYPE) {
    throw new InvalidSubscriptionEvent(
      `Event ${envelope.event_id} carries ${envelope.payload_type}, not ${PAYLOAD_TYPE}`,
    );
  }
  const payload = subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload);
  const state = subscriptionStateOf(envelope.organization_id, payload.subscription);
  return recordSubscriptionState(em, state, now);
}
