import type { ServiceModule } from '@billing/runtime';
import { subscriptionsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { catalogService } from './grpc/catalog-service.js';
import { contractService } from './grpc/contract-service.js';

/**
 * The subscriptions service. It owns the `subscriptions` schema: the catalog (plans, plan
 * terms, contracts and their tiers) now; subscriptions and the renewal engine arrive with the rest of issue 3
 * (see docs/architecture.md).
 */
export const subscriptionsModule: ServiceModule = {
  name: 'subscriptions',
  defaultGrpcPort: 50052,
  entities: subscriptionsEntities,
  migrations,
  publishesEvents: true,
  grpcServices: (deps) => [catalogService(deps), contractService(deps)],
};
