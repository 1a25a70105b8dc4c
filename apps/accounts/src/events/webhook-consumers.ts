import type { EventBus, EventEnvelope, EventsLogger, RunningConsumer } from '@billing/events';
import { startConsumer, streamNameFor, subjectFor } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HandedOverEvents } from '../use-cases/handed-over-events.js';
import { recordEventsWebhookDeliveries } from '../use-cases/webhooks/record-deliveries.js';
import type { WebhooksDeps } from '../use-cases/webhooks/webhooks-deps.js';
import { readModelSchema } from './read-model-feeds.js';
import { type WebhookEventMapping, webhookMappingOf, webhookMappingOfType } from './webhook-event-map.js';

/**
 * The durable consumer's name per mapped event: `accounts-webhooks-invoice-issued` in production
 * (replicas share it), one per throwaway schema in tests. Also the inbox key of the hand-over path.
 */
export function webhookConsumerName(schema: string, mapping: Pick<WebhookEventMapping, 'eventType'>): string {
  return `${schema}-webhooks-${mapping.eventType.replaceAll('.', '-')}`;
}

/** What the webhooks do with events, in the caller's (inbox) transaction. */
export type WebhookEventsHandler = (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>;

/**
 * Turns events into the deliveries of the public events they map to (none for other events), in
 * the inbox transaction `em`: the organizations' webhooks are read once for the batch, and an
 * event's data is rendered only when one of them takes it. Wakes the dispatcher once that
 * transaction committed, when deliveries were made. One event is a batch of one, so the durable
 * consumers' one-by-one retry of a failed batch has exactly the batch's effects.
 */
export function webhookEventsHandler(deps: WebhooksDeps): WebhookEventsHandler {
  const renderDeps = { ...deps, publicApiUrl: deps.webhooks.publicApiUrl };
  return async (em, envelopes) => {
    const sources = envelopes.flatMap((envelope) => {
      const mapping = webhookMappingOf(envelope);
      if (!mapping) return [];
      const context = { requestId: envelope.request_id || envelope.event_id, organizationId: envelope.organization_id };
      return [
        {
          event: { organizationId: envelope.organization_id, eventId: envelope.event_id, name: mapping.name },
          renderData: () => mapping.data(renderDeps, context, envelope),
        },
      ];
    });
    const created = await recordEventsWebhookDeliveries(em, deps.clock, sources, deps.enabledWebhooks);
    if (created === 0) return;
    em.getEventManager().registerSubscriber({
      afterTransactionCommit: async (args) => {
        if (args.em === em) deps.wakeDispatcher();
      },
    });
  };
}

/** webhookEventsHandler for one event (the durable consumers' handle, a failed batch's retry). */
export function webhookEventHandler(deps: WebhooksDeps): (em: EntityManager, envelope: EventEnvelope) => Promise<void> {
  const handleAll = webhookEventsHandler(deps);
  return (em, envelope) => handleAll(em, [envelope]);
}

/**
 * Whether the durable consumer acknowledges the event at once, without a transaction or an inbox
 * row: when it maps to no public event (decided from the event alone), or when the enabled
 * webhooks of its organization, known to be current (use-cases/webhooks/enabled-webhooks.ts),
 * take none of its public event.
 *
 * Why skipping the inbox row is safe for the second reason, although it is decided from stored
 * state: an event's deliveries are decided by the webhooks that exist when it is processed, and
 * here none takes it (the cache answers only from a read begun after the bus stored the event, so
 * a webhook committed before the event was stored, by any replica, is in that read), so the
 * handler would only have written the inbox row. That row makes a
 * later copy of the event (a redelivery, or the producer's hand-over) a no-op. Without it, a later
 * copy decides again, from the webhooks that exist when it is processed: none take it still (and
 * it is skipped again), or one was created or enabled meanwhile and that copy makes its deliveries
 * in a transaction with the inbox row, so every copy after it is a no-op (and a delivery is keyed
 * by webhook and event besides). Either way no webhook ever gets the event twice, and a copy's
 * deliveries are those of the webhooks of its time. When the webhooks are not known, the event
 * goes through the transaction as before, whose read fills the cache.
 */
export function ignoredByWebhooks(
  deps: Pick<WebhooksDeps, 'enabledWebhooks'>,
): (envelope: EventEnvelope, storedAt: Date | null) => boolean {
  return (envelope, storedAt) => {
    const mapping = webhookMappingOfType(envelope);
    if (!mapping) return true;
    if (deps.enabledWebhooks?.takes(envelope.organization_id, mapping.name, storedAt) === false) return true;
    return mapping.when ? !mapping.when(envelope) : false;
  };
}

/** Starts the webhooks' durable consumer of one mapped event type (webhook-durables.ts decides when). */
export type WebhookConsumerStarter = (
  mapping: WebhookEventMapping,
  deliverFrom: 'first' | 'new',
) => Promise<RunningConsumer>;

/**
 * The webhooks' durable consumer of a mapped event type is on exactly its subject
 * (`invoicing.invoice.issued`): the producers' other events (charges, draft lines, ...) never reach
 * the webhooks' inbox.
 */
export function webhookConsumerStarter(
  deps: WebhooksDeps & { logger: EventsLogger; bus: EventBus; handedOver?: HandedOverEvents },
): WebhookConsumerStarter {
  const { bus, handedOver } = deps;
  const schema = readModelSchema(deps.orm);
  const handle = webhookEventHandler(deps);
  const handleBatch = webhookEventsHandler(deps);
  const ignored = ignoredByWebhooks(deps);
  return (mapping, deliverFrom) => {
    const consumer = webhookConsumerName(schema, mapping);
    return startConsumer({
      orm: deps.orm,
      bus,
      logger: deps.logger,
      clock: deps.clock,
      consumer,
      stream: streamNameFor(mapping.producer),
      filterSubject: subjectFor(mapping.producer, mapping.eventType),
      deliverFrom,
      handle,
      // The events that arrived together: one transaction, one inbox insert, one read of the webhooks.
      batch: true,
      handleBatch,
      // An event that maps to no public event (a subscription.changed other than a
      // cancellation), or that no enabled webhook of its organization takes, is acknowledged
      // without a transaction (ignoredByWebhooks says why that is safe); so is a copy whose
      // inbox row this process saw committed by a hand-over (use-cases/handed-over-events.ts).
      ignore: (envelope, { storedAt }) =>
        ignored(envelope, storedAt) || (handedOver?.takeDone(consumer, envelope.event_id) ?? false),
    });
  };
}
