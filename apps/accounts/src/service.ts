import type { ServiceModule } from '@billing/runtime';
import { accountsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { accountsService } from './grpc/accounts-service.js';
import { identityService } from './grpc/identity-service.js';

/** The accounts service: organizations, API tokens, accounts, recipients, payment gateway accounts. */
export const accountsModule: ServiceModule = {
  name: 'accounts',
  defaultGrpcPort: 50051,
  entities: accountsEntities,
  migrations,
  publishesEvents: true,
  grpcServices: (deps) => [accountsService(deps), identityService(deps)],
};
