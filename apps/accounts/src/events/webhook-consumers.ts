import type { EventBus, EventEnvelope, EventsLogger, RunningConsumer } from '@billing/events';
import { startConsumer, streamNameFor, subjectFor } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordWebhookDeliveries } from '../use-cases/webhooks/record-deliveries.js';
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

/**
 * Turns one event into the deliveries of the public event it maps to (none for other events),
 * in the inbox transaction `em`; wakes the dispatcher once that transaction committed.
 */
export function webhookEventHandler(deps: WebhooksDeps): (em: EntityManager, envelope: EventEnvelope) => Promise<void> {
  const renderDeps = { ...deps, publicApiUrl: deps.webhooks.publicApiUrl };
  return async (em, envelope) => {
    const mapping = webhookMappingOf(envelope);
    if (!mapping) return;
    const context = { requestId: envelope.request_id || envelope.event_id, organizationId: envelope.organization_id };
    const created = await recordWebhookDeliveries(
      em,
      deps.clock,
      { organizationId: envelope.organization_id, eventId: envelope.event_id, name: mapping.name },
      () => mapping.data(renderDeps, context, envelope),
    );
    if (created === 0) return;
    em.getEventManager().registerSubscriber({
      afterTransactionCommit: async (args) => {
        if (args.em === em) deps.wakeDispatcher();
      },
    });
  };
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
        }),
      );
    }
    return started;
  } catch (error) {
    for (const consumer of started.reverse()) await consumer.stop();
    throw error;
  }
}
