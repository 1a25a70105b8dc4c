import type { Clock } from '@billing/clock';
import type { EventEnvelope, EventsLogger } from '@billing/events';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  DRAFT_LINE_CHANGED_PAYLOAD,
  draftLineChangedBatchHandler,
  draftLineChangedHandler,
  draftLineChangesConsumerName,
} from './draft-line-changes-consumer.js';
import {
  INVOICE_CHANGED_PAYLOAD,
  invoiceChangedBatchHandler,
  invoiceChangedHandler,
  invoiceChangesConsumerName,
} from './invoice-changes-consumer.js';
import {
  PAYMENT_CARD_CHANGED_PAYLOAD,
  paymentCardChangedHandler,
  paymentCardChangesConsumerName,
} from './payment-card-changes-consumer.js';
import { oneByOne } from './read-model-handler.js';
import {
  SUBSCRIPTION_CHANGED_PAYLOAD,
  subscriptionChangedBatchHandler,
  subscriptionChangedHandler,
  subscriptionChangesConsumerName,
} from './subscription-changes-consumer.js';

/** One kind of event feeding a read model, as both delivery paths must apply it. */
export interface ReadModelFeed {
  /** The inbox consumer name: the durable JetStream consumer's, so the inbox dedupes both paths. */
  consumer: string;
  handle: (em: EntityManager, envelope: EventEnvelope) => Promise<void>;
  /** `handle` for a list of events at once, with the same effects (a failed list is retried one by one). */
  handleBatch: (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>;
}

/** The service schema the consumer names derive from (`accounts` in production). */
export function readModelSchema(orm: MikroORM): string {
  return orm.config.get('schema') ?? 'accounts';
}

/**
 * The read model's feeds by envelope payload type, with the same consumer names and handlers as
 * the durable consumers started in workers.ts: used by ReadModelService.ApplyEvents.
 */
export function readModelFeeds(deps: {
  orm: MikroORM;
  clock: Clock;
  logger: EventsLogger;
}): Map<string, ReadModelFeed> {
  const schema = readModelSchema(deps.orm);
  return new Map([
    [
      SUBSCRIPTION_CHANGED_PAYLOAD,
      {
        consumer: subscriptionChangesConsumerName(schema),
        handle: subscriptionChangedHandler(deps),
        handleBatch: subscriptionChangedBatchHandler(deps),
      },
    ],
    [
      DRAFT_LINE_CHANGED_PAYLOAD,
      {
        consumer: draftLineChangesConsumerName(schema),
        handle: draftLineChangedHandler(deps),
        handleBatch: draftLineChangedBatchHandler(deps),
      },
    ],
    [
      INVOICE_CHANGED_PAYLOAD,
      {
        consumer: invoiceChangesConsumerName(schema),
        handle: invoiceChangedHandler(deps),
        handleBatch: invoiceChangedBatchHandler(deps),
      },
    ],
    [
      PAYMENT_CARD_CHANGED_PAYLOAD,
      {
        consumer: paymentCardChangesConsumerName(schema),
        handle: paymentCardChangedHandler(deps),
        handleBatch: oneByOne(paymentCardChangedHandler(deps)),
      },
    ],
  ]);
}
