import type { ServiceModule } from '@billing/runtime';
import { subscriptionsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';

/**
 * The subscriptions service. It owns the `subscriptions` schema and answers the gRPC health check; its
 * capability arrives with its own issue (see docs/architecture.md).
 */
export const subscriptionsModule: ServiceModule = {
  name: 'subscriptions',
  defaultGrpcPort: 50052,
  entities: subscriptionsEntities,
  migrations,
  publishesEvents: false,
  grpcServices: () => [],
};
