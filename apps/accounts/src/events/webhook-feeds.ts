import type { EventEnvelope } from '@billing/events';
import type { WebhooksDeps } from '../use-cases/webhooks/webhooks-deps.js';
import type { ReadModelFeed } from './read-model-feeds.js';
import { readModelSchema } from './read-model-feeds.js';
import { webhookConsumerName, webhookEventHandler, webhookEventsHandler } from './webhook-consumers.js';
import { webhookMappingOf } from './webhook-event-map.js';

/**
 * The webhook feed of an event a producer hands over (ReadModelService.ApplyEvents): its
 * deliveries are made before the producer answers its caller (the test clock's advance then finds
 * them due), under the durable consumer's inbox name, so the stream's copy is a no-op.
 */
export function webhookFeeds(deps: WebhooksDeps): (envelope: EventEnvelope) => ReadModelFeed[] {
  const schema = readModelSchema(deps.orm);
  const handle = webhookEventHandler(deps);
  const handleBatch = webhookEventsHandler(deps);
  return (envelope) => {
    const mapping = webhookMappingOf(envelope);
    return mapping ? [{ consumer: webhookConsumerName(schema, mapping), handle, handleBatch }] : [];
  };
}
