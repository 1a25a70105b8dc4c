import type { ServiceModule } from '@billing/runtime';
import { analyticsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';

/**
 * The analytics service. It owns the `analytics` schema and answers the gRPC health check; its
 * capability arrives with its own issue (see docs/architecture.md).
 */
export const analyticsModule: ServiceModule = {
  name: 'analytics',
  defaultGrpcPort: 50054,
  entities: analyticsEntities,
  migrations,
  publishesEvents: false,
  grpcServices: () => [],
};
