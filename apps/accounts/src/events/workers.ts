import type { BackgroundWorker, ServiceDeps } from '@billing/runtime';
import { draftLineChangesConsumerName, startDraftLineChangesConsumer } from './draft-line-changes-consumer.js';
import { readModelSchema } from './read-model-feeds.js';
import { startSubscriptionChangesConsumer, subscriptionChangesConsumerName } from './subscription-changes-consumer.js';

/** The consumers feeding this service's read models, started once the bus is there. */
export async function accountsWorkers(deps: ServiceDeps): Promise<BackgroundWorker[]> {
  if (!deps.bus) {
    deps.logger.warn('no event bus configured: the subscription and draft line read models are not fed');
    return [];
  }
  const schema = readModelSchema(deps.orm);
  const common = { orm: deps.orm, bus: deps.bus, logger: deps.logger, clock: deps.clock };
  const subscriptions = await startSubscriptionChangesConsumer({
    ...common,
    consumer: subscriptionChangesConsumerName(schema),
  });
  try {
    const draftLines = await startDraftLineChangesConsumer({
      ...common,
      consumer: draftLineChangesConsumerName(schema),
    });
    return [subscriptions, draftLines];
  } catch (error) {
    // Nobody else knows of the first consumer yet: stop it rather than leave it running.
    await subscriptions.stop();
    throw error;
  }
}
