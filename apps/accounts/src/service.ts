import { serviceExports } from '@billing/exports';
import type { ServiceDeps, ServiceModule } from '@billing/runtime';
import { accountsEntities } from './db/entities/index.js';
import { migrations } from './db/migrations/index.js';
import { accountsWorkers } from './events/workers.js';
import { accountListExport } from './grpc/account-exports.js';
import { accountsService } from './grpc/accounts-service.js';
import { churnReasonService } from './grpc/churn-reason-service.js';
import { identityService } from './grpc/identity-service.js';
import { organizationDataService } from './grpc/organization-data-service.js';
import { readModelService } from './grpc/read-model-service.js';

/** The account list's export (docs/architecture.md "Exports"). */
const exportsOf = (deps: ServiceDeps) => serviceExports('accounts', [accountListExport(deps)]);

/**
 * The accounts service: organizations (and their test clocks), API tokens, churn reasons, accounts,
 * recipients, payment gateway accounts, members, imported ERP budgets and e-invoice field mappings,
 * and the read model of accounts' subscriptions and draft lines.
 */
export const accountsModule: ServiceModule = {
  name: 'accounts',
  defaultGrpcPort: 50051,
  entities: accountsEntities,
  migrations,
  publishesEvents: true,
  grpcServices: (deps) => [
    accountsService(deps),
    identityService(deps),
    churnReasonService(deps),
    readModelService(deps),
    organizationDataService(deps),
    exportsOf(deps).grpcService(deps),
  ],
  /**
   * The export worker, and the read models' consumers (subscriptions.subscription.changed,
   * invoicing.draft_invoice_line.*); ReadModelService takes the same events straight from their producers.
   */
  workers: async (deps) => [...(await accountsWorkers(deps)), exportsOf(deps).worker(deps)],
};
