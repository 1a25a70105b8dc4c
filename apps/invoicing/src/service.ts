import type { ServiceModule } from '@billing/runtime';
import { invoicingEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';

/**
 * The invoicing service. It owns the `invoicing` schema and answers the gRPC health check; its
 * capability arrives with its own issue (see docs/architecture.md).
 */
export const invoicingModule: ServiceModule = {
  name: 'invoicing',
  defaultGrpcPort: 50053,
  entities: invoicingEntities,
  migrations,
  publishesEvents: false,
  grpcServices: () => [],
};
