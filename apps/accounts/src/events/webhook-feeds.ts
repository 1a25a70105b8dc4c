import type { EventEnvelope } from '@billing/events';
import type { WebhooksDeps } from '../use-cases/webhooks/webhooks-deps.js';
import type { ReadModelFeed } from './read-model-feeds.js';
import { readModelSchema } from './read-model-feeds.js';
import {
  ignoredByWebhooks,
  webhookConsumerName,
  webhookEventHandler,
  webhookEventsHandler,
} from './webhook-consumers.js';
import { webhookMappingOf } from './webhook-event-map.js';

/**
 * The webhook feed of an event a producer hands over (ReadModelService.ApplyEvents): its
 * deliveries are made before the producer answers its caller (the test clock's advance then finds
 * them due), under the durable consumer's inbox name, so the stream's copy is a no-op.
 *
 * None for an event the durable consumer would acknowledge at once (ignoredByWebhooks: no enabled
 * webhook of its organization takes it, known to be current): it would only write the inbox row,
 * and the stream's copy is then skipped by the same test or, a webhook that takes it made
 * meanwhile, delivered once through the consumer's inbox (ignoredByWebhooks says why that is
 * safe). Writing that row cost one inbox row per issued invoice when an organization has no
 * webhooks (39,000 in a 30,000-subscription billing run).
 */
export function webhookFeeds(deps: WebhooksDeps): (envelope: EventEnvelope) => ReadModelFeed[] {
  const schema = readModelSchema(deps.orm);
  const handle = webhookEventHandler(deps);
  const handleBatch = webhookEventsHandler(deps);
  const ignored = ignoredByWebhooks(deps);
  return (envelope) => {
    const mapping = webhookMappingOf(envelope);
    // Not yet stored in the stream (null): the stream's copy is decided again when consumed.
    return mapping && !ignored(envelope, null)
      ? [{ consumer: webhookConsumerName(schema, mapping), handle, handleBatch }]
      : [];
  };
}
