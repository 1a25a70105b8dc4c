import type { BackgroundWorker, ServiceDeps } from '@billing/runtime';
import type { HandedOverEvents } from '../use-cases/handed-over-events.js';
import { draftLineChangesConsumerName, startDraftLineChangesConsumer } from './draft-line-changes-consumer.js';
import { invoiceChangesConsumerName, startInvoiceChangesConsumer } from './invoice-changes-consumer.js';
import { paymentCardChangesConsumerName, startPaymentCardChangesConsumer } from './payment-card-changes-consumer.js';
import type { ReadModelConsumerOptions } from './read-model-consumer.js';
import { readModelSchema } from './read-model-feeds.js';
import { startSubscriptionChangesConsumer, subscriptionChangesConsumerName } from './subscription-changes-consumer.js';

/**
 * The consumers feeding this service's read models, started once the bus is there; they skip the
 * copies of the events `handedOver` knows applied.
 */
export async function accountsWorkers(deps: ServiceDeps, handedOver?: HandedOverEvents): Promise<BackgroundWorker[]> {
  if (!deps.bus) {
    deps.logger.warn(
      'no event bus configured: the subscription, draft line, invoice and payment card read models are not fed',
    );
    return [];
  }
  const schema = readModelSchema(deps.orm);
  const common = {
    orm: deps.orm,
    bus: deps.bus,
    logger: deps.logger,
    clock: deps.clock,
    ...(handedOver ? { handedOver } : {}),
  };
  const starts: Array<[start: (options: ReadModelConsumerOptions) => Promise<BackgroundWorker>, consumer: string]> = [
    [startSubscriptionChangesConsumer, subscriptionChangesConsumerName(schema)],
    [startDraftLineChangesConsumer, draftLineChangesConsumerName(schema)],
    [startInvoiceChangesConsumer, invoiceChangesConsumerName(schema)],
    [startPaymentCardChangesConsumer, paymentCardChangesConsumerName(schema)],
  ];
  const started: BackgroundWorker[] = [];
  try {
    for (const [start, consumer] of starts) started.push(await start({ ...common, consumer }));
    return started;
  } catch (error) {
    // Nobody else knows of the consumers started so far: stop them rather than leave them running.
    for (const worker of started.reverse()) await worker.stop();
    throw error;
  }
}
