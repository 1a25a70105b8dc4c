import { exportWorkerIntervalMs, serviceExports } from '@billing/exports';
import { accountsReadModel, type ReadModelSender, readModelHandOver } from '@billing/read-model-client';
import type { ServiceDeps, ServiceModule } from '@billing/runtime';
import { subscriptionsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { ACCOUNTS_READ_MODEL_EVENT_TYPES } from './events/accounts-hand-over.js';
import { startOrganizationConsumer } from './events/organization-events.js';
import { catalogService } from './grpc/catalog-service.js';
import { contractService } from './grpc/contract-service.js';
import { subscriptionListExport } from './grpc/subscription-exports.js';
import { subscriptionService } from './grpc/subscription-service.js';
import { loadSubscriptionsConfig, type SubscriptionsConfig } from './subscriptions-config.js';
import type { SubscriptionsDeps } from './use-cases/deps.js';
import { startRenewalScheduler } from './workers/renewal-scheduler.js';
import { loadSchedulerConfig } from './workers/scheduler-config.js';

export interface SubscriptionsModuleOptions {
  config?: Partial<SubscriptionsConfig>;
}

/**
 * The subscriptions service. It owns the `subscriptions` schema: the catalog (plans, plan
 * terms, contracts and their tiers), subscriptions, their charges, and the renewal scheduler
 * (see docs/architecture.md). Each committed subscription change is also handed straight to the
 * accounts service's read model.
 */
export function createSubscriptionsModule(options: SubscriptionsModuleOptions = {}): ServiceModule {
  // One accounts client per started service (its ServiceDeps), closed when that service stops.
  const readModels = new WeakMap<ServiceDeps, ReadModelSender>();
  const config = (): SubscriptionsConfig => ({ ...loadSubscriptionsConfig(), ...options.config });
  const readModelOf = (deps: ServiceDeps): ReadModelSender => {
    let readModel = readModels.get(deps);
    if (!readModel) {
      readModel = accountsReadModel(config().accountsAddress);
      readModels.set(deps, readModel);
    }
    return readModel;
  };
  const depsOf = (deps: ServiceDeps): SubscriptionsDeps => ({
    orm: deps.orm,
    clock: deps.clock,
    committedEvents: readModelHandOver(readModelOf(deps), ACCOUNTS_READ_MODEL_EVENT_TYPES, deps.logger),
  });
  const exports = serviceExports('subscriptions', [subscriptionListExport]);
  return {
    name: 'subscriptions',
    defaultGrpcPort: 50052,
    entities: subscriptionsEntities,
    migrations,
    publishesEvents: true,
    checkConfig: (env) => {
      loadSubscriptionsConfig(env);
      loadSchedulerConfig(env);
      exportWorkerIntervalMs('subscriptions', env);
    },
    grpcServices: (deps) => {
      const subscriptions = depsOf(deps);
      return [
        catalogService(subscriptions),
        contractService(subscriptions),
        subscriptionService(subscriptions),
        exports.grpcService(deps),
      ];
    },
    workers: async (deps) => {
      // Read before anything starts: a bad value leaves nothing running to stop.
      const scheduler = loadSchedulerConfig();
      // Stopped in reverse order: the accounts client closes last, after everything that uses it.
      const workers = [{ stop: async () => readModelOf(deps).close() }, exports.worker(deps)];
      if (deps.bus) {
        // The organizations' base currency and exchange rates: current_mrr / committed_mrr are shown in them.
        const schema = deps.orm.config.get('schema') ?? 'subscriptions';
        workers.push(await startOrganizationConsumer({ ...deps, bus: deps.bus, schema }));
      } else {
        deps.logger.warn("no event bus configured: MRR stays in the subscriptions' currencies");
      }
      if (!scheduler.enabled) return workers;
      return [
        ...workers,
        startRenewalScheduler({
          ...deps,
          intervalMs: scheduler.intervalMs,
          batchSize: scheduler.batchSize,
          concurrency: scheduler.concurrency,
        }),
      ];
    },
  };
}

export const subscriptionsModule: ServiceModule = createSubscriptionsModule();
