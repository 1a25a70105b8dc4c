import { TestClock } from '@billing/clock';
import { createGrpcClient, type GrpcClient, type GrpcClientConstructor } from '@billing/grpc';
import { createLogger, type RequestContext } from '@billing/observability';
import { type RunningService, type ServiceModule, startService } from '@billing/runtime';
import { createTestSchema, type TestSchema } from '@billing/testing';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { afterAll, beforeAll } from 'vitest';
import { accountsModule } from '../../src/service.js';
import { createOrganization, type NewOrganization } from '../../src/use-cases/organizations.js';

/**
 * The accounts service on a throwaway schema for one test file, with a gRPC client of `Client`
 * and a way to make organizations; started before the file's tests, stopped after. `module` is
 * the accounts module as configured for the file (e.g. createAccountsModule with webhook settings).
 */
export function useAccountsService<S extends ServiceDefinition>(
  Client: GrpcClientConstructor<S>,
  module: ServiceModule = accountsModule,
) {
  const clock = new TestClock('2026-01-15T09:00:00Z');
  let database: TestSchema;
  let service: RunningService;
  let client: GrpcClient<S>;

  beforeAll(async () => {
    database = await createTestSchema('accounts');
    service = await startService(module, {
      databaseUrl: database.databaseUrl,
      schema: database.schema,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock,
      logger: createLogger('test', 'silent'),
      bus: null,
      migrateOnStart: true,
    });
    client = createGrpcClient(Client, service.address);
  });

  afterAll(async () => {
    client?.close();
    await service?.stop();
    await database?.drop();
  });

  /** Usable at module level: calls go to the client made before the tests run. */
  const lazyClient = {
    call: ((...args: Parameters<GrpcClient<S>['call']>) => client.call(...args)) as GrpcClient<S>['call'],
  };

  return {
    clock,
    service: () => service,
    database: () => database,
    client: lazyClient,
    /** A new organization (with `settings`), the call context of its API user, and its token. */
    async organization(settings: Partial<NewOrganization> & { name?: string } = {}) {
      const { organization, token } = await createOrganization(
        { orm: service.orm, clock },
        { name: 'Test organization', ...settings },
      );
      const context: RequestContext = { requestId: 'test', organizationId: organization.id, clientSystem: 'test' };
      return { context, token: token.token, organizationId: organization.id };
    },
  };
}
