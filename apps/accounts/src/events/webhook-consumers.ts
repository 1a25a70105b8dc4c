import type { EventBus, EventEnvelope, EventsLogger, RunningConsumer } from '@billing/events';
import { startConsumer, streamNameFor, subjectFor } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEventsWebhookDeliveries } from '../use-cases/webhooks/record-deliveries.js';
import type { WebhooksDeps } from '../use-cases/webhooks/webhooks-deps.js';
import { readModelSchema } from './read-model-feeds.js';
import { WEBHOOK_EVENT_MAP, type WebhookEventMapping, webhookMappingOf } from './webhook-event-map.js';

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
    const created = await recordEventsWebhookDeliveries(em, deps.clock, sources);
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
 * One durable consumer per mapped event type, on exactly its subject (`invoicing.invoice.issued`):
 * the producers' other events (charges, draft lines, ...) never reach the webhooks' inbox.
 */
export async function startWebhookConsumers(
  deps: WebhooksDeps & { logger: EventsLogger; bus: EventBus | null },
): Promise<RunningConsumer[]> {
  const { bus } = deps;
  if (!bus) {
    deps.logger.warn('no event bus configured: no webhook deliveries are made from events');
    return [];
  }
  const schema = readModelSchema(deps.orm);
  const handle = webhookEventHandler(deps);
  const handleBatch = webhookEventsHandler(deps);
  const started: RunningConsumer[] = [];
  try {
    for (const mapping of WEBHOOK_EVENT_MAP) {
      started.push(
        await startConsumer({
          orm: deps.orm,
          bus,
          logger: deps.logger,
          clock: deps.clock,
          consumer: webhookConsumerName(schema, mapping),
          stream: streamNameFor(mapping.producer),
          filterSubject: subjectFor(mapping.producer, mapping.eventType),
          handle,
          // The events that arrived together: one transaction, one inbox insert, one read of the webhooks.
          batch: true,
          handleBatch,
          // An event that maps to no public event (a subscription.changed other than a
          // cancellation, decided from the event alone) is acknowledged without a transaction.
          ignore: (envelope) => webhookMappingOf(envelope) === null,
        }),
      );
    }
    return started;
  } catch (error) {
    for (const consumer of started.reverse()) await consumer.stop();
    throw error;
  }
}
