import type { BackgroundWorker, ServiceDeps } from '@billing/runtime';
import { startSubscriptionChangesConsumer, subscriptionChangesConsumerName } from './subscription-changes-consumer.js';

/** The consumers feeding this service's read models, started once the bus is there. */
export async function accountsWorkers(deps: ServiceDeps): Promise<BackgroundWorker[]> {
  if (!deps.bus) {
    deps.logger.warn('no event bus configured: the subscription read model is not fed');
    return [];
  }
  const schema = deps.orm.config.get('schema') ?? 'accounts';
  return [
    await startSubscriptionChangesConsumer({
      orm: deps.orm,
      bus: deps.bus,
      logger: deps.logger,
      clock: deps.clock,
      consumer: subscriptionChangesConsumerName(schema),
    }),
  ];
}
