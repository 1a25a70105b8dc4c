import type { ServiceModule } from '@billing/runtime';
import { paymentsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';

/**
 * The payments service. It owns the `payments` schema and answers the gRPC health check; its
 * capability arrives with its own issue (see docs/architecture.md).
 */
export const paymentsModule: ServiceModule = {
  name: 'payments',
  defaultGrpcPort: 50055,
  entities: paymentsEntities,
  migrations,
  publishesEvents: false,
  grpcServices: () => [],
};
