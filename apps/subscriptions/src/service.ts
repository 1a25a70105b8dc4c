import type { ServiceModule } from '@billing/runtime';
import { subscriptionsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { catalogService } from './grpc/catalog-service.js';
import { contractService } from './grpc/contract-service.js';
import { subscriptionService } from './grpc/subscription-service.js';
import { startRenewalScheduler } from './scheduler/renewal-scheduler.js';
import { loadSchedulerConfig } from './scheduler/scheduler-config.js';

/**
 * The subscriptions service. It owns the `subscriptions` schema: the catalog (plans, plan
 * terms, contracts and their tiers), subscriptions, their charges, and the renewal scheduler
 * (see docs/architecture.md).
 */
export const subscriptionsModule: ServiceModule = {
  name: 'subscriptions',
  defaultGrpcPort: 50052,
  entities: subscriptionsEntities,
  migrations,
  publishesEvents: true,
  grpcServices: (deps) => [catalogService(deps), contractService(deps), subscriptionService(deps)],
  workers: async (deps) => {
    const config = loadSchedulerConfig();
    if (!config.enabled) return [];
    return [startRenewalScheduler({ ...deps, intervalMs: config.intervalMs, batchSize: config.batchSize })];
  },
};
