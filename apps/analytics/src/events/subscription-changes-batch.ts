import { canonicalUuidOrText } from '@billing/domain-kit';
import type { EventEnvelope } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockAndJournal } from '../db/event-log.js';
import { chunksWithoutRepeats, runsOf } from '../domain/batch-runs.js';
import { recordSubscriptionChanges } from '../use-cases/record-subscription-changes.js';
import { activitiesCreatedInsert } from './activity-created-batch.js';
import { subscriptionChangeOf } from './subscription-change-mapper.js';

const SUBSCRIPTION_CHANGED = 'billing.events.v1.SubscriptionChanged';
/** The other subscriptions.> events handleSubscriptionsEvent applies (plans' and terms' names); it ignores the rest. */
const CATALOG_CHANGED = new Set(['billing.events.v1.PlanChanged', 'billing.events.v1.PlanTermsChanged']);

/** Whether handleSubscriptionsEvent does anything with the event (decided from its payload type alone). */
export const isAppliedSubscriptionsEvent = (envelope: Pick<EventEnvelope, 'payload_type'>): boolean =>
  envelope.payload_type === SUBSCRIPTION_CHANGED || CATALOG_CHANGED.has(envelope.payload_type);

/**
 * A batch of subscriptions.> events (the consumer's `handleBatch`), with the same effects as
 * `handleOne` applied to each in order: consecutive subscription.changed events are applied
 * together, in chunks in which no subscription occurs twice; a plan or its terms changed is
 * applied on its own at its place, so what it changes keeps its order; the events `handleOne`
 * ignores are left out.
 */
export async function handleSubscriptionsBatch(
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
  handleOne: (em: EntityManager, envelope: EventEnvelope) => Promise<void>,
): Promise<void> {
  // Events without effect (a charge.created beside each renewal) are left out: they would cut the runs short.
  const applied = envelopes.filter(isAppliedSubscriptionsEvent);
  for (const run of runsOf(applied, (envelope) => envelope.payload_type === SUBSCRIPTION_CHANGED)) {
    if (!run.kind) {
      for (const envelope of run.items) await appliedAlone(em, envelope, handleOne);
      continue;
    }
    const changes = run.items.map((envelope) => ({ envelope, ...decoded(envelope) }));
    for (const chunk of chunksWithoutRepeats(changes, (change) => change.record.uuid)) {
      await recordChunk(em, chunk);
      // The next run starts from the database, as the next event does when handled alone.
      await em.flush();
      em.clear();
    }
  }
}

async function appliedAlone(
  em: EntityManager,
  envelope: EventEnvelope,
  handleOne: (em: EntityManager, envelope: EventEnvelope) => Promise<void>,
): Promise<void> {
  await handleOne(em, envelope);
  await em.flush();
  em.clear();
}

const occurredAt = (envelope: EventEnvelope): Date => envelope.occurred_at ?? new Date(0);

function decoded(envelope: EventEnvelope) {
  return subscriptionChangeOf(subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload));
}

type DecodedChange = { envelope: EventEnvelope } & ReturnType<typeof decoded>;

/**
 * subscription.changed events of distinct subscriptions, as recordActivityEvent handles each:
 * their organizations locked, the events journaled, applied, and the activities each recorded
 * announced (activity.created), set-wise.
 */
async function recordChunk(em: EntityManager, chunk: readonly DecodedChange[]): Promise<void> {
  await lockAndJournal(
    em,
    chunk.map(({ envelope }) => envelope),
  );
  await recordSubscriptionChanges(
    em,
    chunk.map(({ envelope, change, record }) => ({
      organizationId: canonicalUuidOrText(envelope.organization_id),
      change,
      record,
      now: occurredAt(envelope),
    })),
    (recorded) =>
      activitiesCreatedInsert(
        em,
        chunk.map(({ envelope }, i) => ({
          source: {
            organizationId: envelope.organization_id,
            requestId: envelope.request_id || envelope.event_id,
            occurredAt: occurredAt(envelope),
          },
          activities: recorded[i] ?? [],
        })),
      ),
  );
}
