import { TestClock } from '@billing/clock';
import { inTransaction } from '@billing/db';
import { appendToOutbox, type DeliveredMessage, decodeEnvelope, eventEntities, InProcessBus } from '@billing/events';
import { checkHealth, ServingStatus } from '@billing/grpc';
import { createLogger } from '@billing/observability';
import { createTestSchema, type TestSchema, waitFor } from '@billing/testing';
import { Migration } from '@mikro-orm/migrations';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BackgroundWorker, ServiceModule } from '../src/index.js';
import { startService } from '../src/index.js';

/** The outbox and inbox tables, as a service's generated migration creates them. */
class CreateEventTables extends Migration {
  override up(): void {
    this.addSql(
      'create table "outbox" ("id" uuid not null, "position" bigserial, "subject" text not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null, "traceparent" text null, "tracestate" text null, primary key ("id"));',
    );
    this.addSql(
      'create table "inbox" ("consumer" text not null, "message_id" uuid not null, "processed_at" timestamptz not null, primary key ("consumer", "message_id"));',
    );
  }
}

const stoppedWorkers: string[] = [];
const module: ServiceModule = {
  name: 'widgets',
  defaultGrpcPort: 50999,
  entities: eventEntities,
  migrations: [CreateEventTables],
  publishesEvents: true,
  grpcServices: () => [],
  workers: async (): Promise<BackgroundWorker[]> => [{ stop: async () => void stoppedWorkers.push('scheduler') }],
};

describe('startService', () => {
  let database: TestSchema;
  beforeEach(async () => {
    database = await createTestSchema('widgets');
    stoppedWorkers.length = 0;
  });
  afterEach(() => database.drop());

  it('migrates, relays the outbox to the bus, serves health, and stops its workers', async () => {
    const bus = new InProcessBus();
    const clock = new TestClock('2026-03-01T12:00:00Z');
    const service = await startService(module, {
      ...database,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock,
      logger: createLogger('widgets', 'silent'),
      bus,
      migrateOnStart: true,
      relay: { pollIntervalMs: 20 },
    });
    const delivered: DeliveredMessage[] = [];
    const consumer = await bus.consume({
      stream: 'WIDGETS',
      durable: 'test',
      filterSubject: 'widgets.>',
      handler: async (message) => {
        delivered.push(message);
        await message.ack();
      },
    });
    try {
      expect(await checkHealth(service.address)).toBe(ServingStatus.SERVING);
      const envelope = await inTransaction(service.orm, async (em) =>
        appendToOutbox(em, {
          producer: 'widgets',
          eventType: 'widget.created',
          organizationId: '6f1c1c1e-1111-4111-8111-111111111111',
          aggregateType: 'widget',
          aggregateId: 'w-1',
          payloadType: 'test.Widget',
          payload: new Uint8Array([1, 2, 3]),
          occurredAt: clock.now(),
        }),
      );
      await waitFor(() => delivered.length === 1, { description: 'the relayed event' });
      expect(delivered[0]!.subject).toBe('widgets.widget.created');
      const received = decodeEnvelope(delivered[0]!.data);
      expect([received.event_id, received.occurred_at?.toISOString()]).toEqual([
        envelope.event_id,
        '2026-03-01T12:00:00.000Z',
      ]);
    } finally {
      await consumer.stop();
      await service.stop();
      await bus.close();
    }
    expect(stoppedWorkers).toEqual(['scheduler']);
    await expect(checkHealth(service.address, '', 300)).rejects.toMatchObject({ reason: 'UNAVAILABLE' });
  });

  it('keeps events in the outbox when no bus is configured', async () => {
    const service = await startService(module, {
      ...database,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock: new TestClock(),
      logger: createLogger('widgets', 'silent'),
      bus: null,
      migrateOnStart: true,
    });
    try {
      expect(service.relay).toBeNull();
      expect(await checkHealth(service.address)).toBe(ServingStatus.SERVING);
    } finally {
      await service.stop();
    }
  });
});
