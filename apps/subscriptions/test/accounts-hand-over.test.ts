/**
 * The direct hand-over to the accounts read model, with both services started in this process the
 * way `npm start` starts them, but without an event bus: the stream cannot deliver anything, so
 * whatever accounts shows right after a subscription write came through ReadModelService.ApplyEvents
 * before the write answered.
 */
import { randomUUID } from 'node:crypto';
import { accountsModule, createOrganization } from '@billing/accounts';
import { TestClock } from '@billing/clock';
import { createGrpcClient, type GrpcClient } from '@billing/grpc';
import { createLogger, type RequestContext } from '@billing/observability';
import { accountsV1, subscriptionsV1 } from '@billing/proto';
import { type RunningService, startService } from '@billing/runtime';
import { createTestSchema, type TestSchema } from '@billing/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriptionsModule } from '../src/service.js';
import { seedMonthlyTerms } from './support/engine-database.js';

const NOW = new Date('2026-03-10T09:00:00Z');
const RENEWAL = new Date('2026-04-10T08:00:00Z'); // 10:00 in Copenhagen, summer time

describe('subscription writes handed over to the accounts read model', () => {
  const clock = new TestClock(NOW);
  // Warnings shown: a failed hand-over logs why, which is what a failure here needs.
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'warn');
  const schemas: TestSchema[] = [];
  const services: RunningService[] = [];
  let accountsClient: GrpcClient<typeof accountsV1.AccountsServiceService>;
  let subscriptionsClient: GrpcClient<typeof subscriptionsV1.SubscriptionServiceService>;
  let subscriptionsService: RunningService;
  let accountsService: RunningService;

  const start = async (module: Parameters<typeof startService>[0]) => {
    const schema = await createTestSchema(module.name);
    schemas.push(schema);
    const service = await startService(module, {
      databaseUrl: schema.databaseUrl,
      schema: schema.schema,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock,
      logger,
      bus: null,
      migrateOnStart: true,
    });
    services.push(service);
    return service;
  };

  beforeAll(async () => {
    accountsService = await start(accountsModule);
    subscriptionsService = await start(
      createSubscriptionsModule({ config: { accountsAddress: accountsService.address } }),
    );
    accountsClient = createGrpcClient(accountsV1.AccountsServiceClient, accountsService.address);
    subscriptionsClient = createGrpcClient(subscriptionsV1.SubscriptionServiceClient, subscriptionsService.address);
  });
  afterAll(async () => {
    accountsClient?.close();
    subscriptionsClient?.close();
    for (const service of services.reverse()) await service.stop();
    for (const schema of schemas) await schema.drop();
  });

  /** An organization with one account and monthly terms; `testClock`: its calls carry their own time. */
  async function customer(testClock: boolean) {
    const { organization } = await createOrganization(
      { orm: accountsService.orm, clock },
      { name: `Hand-over ${randomUUID()}` },
    );
    const context = (time?: Date): RequestContext => ({
      requestId: `hand-over-${randomUUID()}`,
      organizationId: organization.id,
      clientSystem: 'test',
      organizationTimeZone: 'Europe/Copenhagen',
      ...(testClock ? { organizationTime: (time ?? NOW).toISOString() } : {}),
    });
    const input = { code: 'acme', legal_address: 'Vesterbrogade 1', legal_zipcode: '1620', legal_city: 'København V' };
    const { account } = await accountsClient.call(
      'createAccount',
      { account: { ...input, legal_country: 'DK' }, present_fields: [...Object.keys(input), 'legal_country'] },
      { context: context() },
    );
    const terms = await seedMonthlyTerms(subscriptionsService.orm, {
      organizationId: organization.id,
      price: '100.00',
      at: NOW,
    });
    const subscribed = async () => {
      const { subscription } = await subscriptionsClient.call(
        'createSubscription',
        {
          account: account!.uuid,
          subscription: { terms, collection_method: 'invoice' },
          present_fields: ['terms', 'collection_method'],
        },
        { context: context() },
      );
      return subscription!;
    };
    const readBack = async () => {
      const reply = await accountsClient.call('getAccount', { code: 'acme' }, { context: context() });
      return reply.account!.subscriptions;
    };
    return { context, subscribed, readBack };
  }

  it('shows a created and then an updated subscription at once, at its version', async () => {
    const { context, subscribed, readBack } = await customer(false);
    const created = await subscribed();
    expect(created.version).toBe(1);
    expect(await readBack()).toEqual([created]);

    clock.advanceMs(60_000);
    const { subscription: updated } = await subscriptionsClient.call(
      'updateSubscription',
      { uuid: created.uuid, subscription: { po_number: 'PO-7' }, present_fields: ['po_number'] },
      { context: context() },
    );
    expect(updated).toMatchObject({ version: 2, po_number: 'PO-7' });
    expect(await readBack()).toEqual([updated]);
  });

  it('shows what the test clock renewed once ProcessDue answered', async () => {
    const { context, subscribed, readBack } = await customer(true);
    const created = await subscribed();
    const { processed } = await subscriptionsClient.call(
      'processDue',
      { until: RENEWAL },
      { context: context(RENEWAL) },
    );
    expect(processed).toBe(1);
    const { subscription: renewed } = await subscriptionsClient.call(
      'getSubscription',
      { uuid: created.uuid },
      { context: context(RENEWAL) },
    );
    expect(renewed).toMatchObject({ version: 2, last_renewal_date: RENEWAL });
    expect(await readBack()).toEqual([renewed]);
  });
});
