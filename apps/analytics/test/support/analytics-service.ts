import { type EventEnvelope, handleEventOnce } from '@billing/events';
import { createLogger } from '@billing/observability';
import { type RunningService, startService } from '@billing/runtime';
import { createTestSchema, TestClock, type TestSchema } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll } from 'vitest';
import { analyticsModule } from '../../src/service.js';

/**
 * The analytics service on a throwaway, migrated schema (no bus: tests hand events to the
 * consumers' handlers through the inbox, as a consumer does), for the test file's lifetime.
 */
export function useAnalyticsService() {
  let database: TestSchema;
  let service: RunningService;
  beforeAll(async () => {
    database = await createTestSchema('analytics');
    service = await startService(analyticsModule, {
      databaseUrl: database.databaseUrl,
      schema: database.schema,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock: new TestClock('2026-01-15T09:00:00Z'),
      logger: createLogger('test', 'silent'),
      bus: null,
      migrateOnStart: true,
    });
  });
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });
  return {
    service: () => service,
    database: () => database,
    /** Applies the event once, with its inbox row, as the durable consumer does. */
    apply: (envelope: EventEnvelope, handle: (em: EntityManager, envelope: EventEnvelope) => Promise<void>) =>
      handleEventOnce({ orm: service.orm, consumer: 'test' }, envelope, handle),
  };
}
