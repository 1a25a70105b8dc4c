import { TestClock } from '@billing/clock';
import { AuditLogEntry, insertAuditEntries, inTransaction, migrate, openOrm } from '@billing/db';
import { decodeEnvelope, type EventEnvelope, eventEntities, insertOutboxRecords, OutboxMessage } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { createTestSchema, type TestSchema } from '@billing/testing';
import { Migration } from '@mikro-orm/migrations';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeScope, CollectedChangeRecords, changeScope, runChange } from '../src/index.js';

/** The outbox and audit tables a change writes, as a service's generated migration creates them. */
class CreateChangeTables extends Migration {
  override up(): void {
    this.addSql(
      'create table "outbox" ("id" uuid not null, "position" bigserial, "subject" text not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null, "traceparent" text null, "tracestate" text null, primary key ("id"));',
    );
    this.addSql(
      'create table "inbox" ("consumer" text not null, "message_id" uuid not null, "processed_at" timestamptz not null, primary key ("consumer", "message_id"));',
    );
    this.addSql(
      'create table "audit_log" ("id" uuid not null, "organization_id" text not null, "api_user_id" text null, "client_system" text null, "external_user" text null, "request_id" text null, "action" text not null, "object_type" text not null, "object_id" text not null, "occurred_at" timestamptz not null, "details" jsonb null, primary key ("id"));',
    );
  }
}

const ORGANIZATION = '11111111-1111-4111-8111-111111111111';
const context: RequestContext = { requestId: 'req-7', organizationId: ORGANIZATION };
const clock = new TestClock('2026-03-01T12:00:00Z');

const widgetEvent = (id: string) => ({
  eventType: 'widget.changed',
  aggregateType: 'widget',
  aggregateId: id,
  payloadType: 'test.WidgetChanged',
  payload: new Uint8Array([7]),
});

/** A schema of its own with the outbox and audit tables, for the describe block it is called in. */
function useChangeTables(name: string): () => MikroORM {
  let database: TestSchema;
  let orm: MikroORM;
  beforeAll(async () => {
    database = await createTestSchema(name);
    orm = await openOrm({
      clientUrl: database.databaseUrl,
      schema: database.schema,
      entities: [...eventEntities, AuditLogEntry],
      migrations: [CreateChangeTables],
    });
    await migrate(orm);
  });
  afterAll(async () => {
    await orm?.close(true);
    await database?.drop();
  });
  return () => orm;
}

describe('runChange and its committed events listener', () => {
  const changeTables = useChangeTables('run_change');
  let orm: MikroORM;
  beforeAll(() => {
    orm = changeTables();
  });

  const outboxIds = async (): Promise<string[]> =>
    (await orm.em.fork().find(OutboxMessage, {}, { orderBy: { position: 'asc' } })).map((row) => row.id);

  it("hands the change's events over once, after the commit, in publication order, with the context", async () => {
    const before = await outboxIds();
    const calls: { events: EventEnvelope[]; context: RequestContext; committed: string[] }[] = [];
    const result = await runChange(
      {
        orm,
        clock,
        committedEvents: async (events, callContext) => {
          // Read outside the change's transaction: only committed rows are visible here.
          calls.push({ events: [...events], context: callContext, committed: await outboxIds() });
        },
      },
      'widgets',
      context,
      async (scope: ChangeScope) => {
        scope.publish(widgetEvent('w-1'));
        scope.publish(widgetEvent('w-2'));
        return 'done';
      },
    );

    expect(result).toBe('done');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    const stored = call!.committed.filter((id) => !before.includes(id));
    expect(call!.events.map((event) => event.event_id)).toEqual(stored);
    expect(call!.events.map((event) => [event.aggregate_id, event.organization_id, event.request_id])).toEqual([
      ['w-1', ORGANIZATION, 'req-7'],
      ['w-2', ORGANIZATION, 'req-7'],
    ]);
    expect(call!.events[0]!.occurred_at).toEqual(new Date('2026-03-01T12:00:00Z'));
    expect(call!.context).toBe(context);
    const [row] = await orm.em.fork().find(OutboxMessage, { id: stored[0]! });
    expect(decodeEnvelope(row!.payload)).toEqual(call!.events[0]);
  });

  it('tells nothing of a change that rolls back', async () => {
    const before = await outboxIds();
    let calls = 0;
    await expect(
      runChange(
        {
          orm,
          clock,
          committedEvents: async () => {
            calls += 1;
          },
        },
        'widgets',
        context,
        async (scope) => {
          scope.publish(widgetEvent('w-3'));
          throw new Error('refused after publishing');
        },
      ),
    ).rejects.toThrow('refused after publishing');
    expect(calls).toBe(0);
    expect(await outboxIds()).toEqual(before);
  });

  it('does not call the listener for a change that publishes nothing', async () => {
    let calls = 0;
    const result = await runChange(
      {
        orm,
        clock,
        committedEvents: async () => {
          calls += 1;
        },
      },
      'widgets',
      context,
      async (scope) => {
        scope.audit('widget.touch', 'widget', 'w-4');
        return 42;
      },
    );
    expect([result, calls]).toEqual([42, 0]);
  });
});

describe("CollectedChangeRecords: a batch's scopes", () => {
  const changeTables = useChangeTables('collected_records');
  let orm: MikroORM;
  beforeAll(() => {
    orm = changeTables();
  });

  const at = new Date('2026-03-01T12:00:00Z');
  const later = new Date('2026-03-02T08:30:00Z');
  /** Two changes of a batch: the second finds its object changed later, so it stamps `later`. */
  const changes = (scopeOf: () => ChangeScope) => {
    const first = scopeOf();
    first.audit('widget.update', 'widget', 'w-1', { quantity: 2 });
    first.publish(widgetEvent('w-1'));
    const second = scopeOf().notBefore(later);
    second.publish(widgetEvent('w-2'));
    second.audit('widget.update', 'widget', 'w-2');
  };
  /** What the change left in the outbox and audit log, without the rows' random ids. */
  const written = async () => {
    const em = orm.em.fork();
    const events = (await em.find(OutboxMessage, {}, { orderBy: { position: 'asc' } })).map((row) => {
      const { event_id: _id, ...envelope } = decodeEnvelope(row.payload);
      return { subject: row.subject, createdAt: row.createdAt, envelope };
    });
    const audits = (await em.find(AuditLogEntry, {}, { orderBy: { occurredAt: 'asc', objectId: 'asc' } })).map(
      ({ id: _id, ...row }) => ({ ...row }),
    );
    await em.nativeDelete(OutboxMessage, {});
    await em.nativeDelete(AuditLogEntry, {});
    return { events, audits };
  };

  it('collect the audit rows and events changeScope writes, to be written with one statement each', async () => {
    // Who made the change, as an integration tells it (quotes and backslashes travel as they are).
    const context: RequestContext = {
      requestId: 'req-7',
      organizationId: ORGANIZATION,
      apiUserId: 'user-3',
      clientSystem: 'ERP "north"',
      externalUser: 'ada\\b',
    };
    await inTransaction(orm, async (em) => changes(() => changeScope(em, 'widgets', ORGANIZATION, context, at)));
    const byUnitOfWork = await written();

    const published: EventEnvelope[] = [];
    const records = new CollectedChangeRecords('widgets', { published });
    await inTransaction(orm, async (em) => {
      changes(() => records.scope(em, ORGANIZATION, context, at));
      const { audits, events } = records.take();
      expect([audits.length, events.length, published.length]).toEqual([2, 2, 2]);
      await insertAuditEntries(em, audits);
      await insertOutboxRecords(em, events);
    });
    expect(records.take()).toEqual({ audits: [], events: [] });
    const collected = await written();

    expect(collected).toEqual(byUnitOfWork);
    expect(
      collected.audits.map((row) => [row.objectId, row.apiUserId, row.clientSystem, row.externalUser, row.details]),
    ).toEqual([
      ['w-1', 'user-3', 'ERP "north"', 'ada\\b', { quantity: 2 }],
      ['w-2', 'user-3', 'ERP "north"', 'ada\\b', {}],
    ]);
    expect(collected.events.map(({ envelope }) => [envelope.aggregate_id, envelope.occurred_at])).toEqual([
      ['w-1', at],
      ['w-2', later],
    ]);
    expect(published.map((envelope) => envelope.aggregate_id)).toEqual(['w-1', 'w-2']);
  });

  it('leave the audit rows to the unit of work when told to, and write only the events', async () => {
    const records = new CollectedChangeRecords('widgets', { auditsByUnitOfWork: true });
    await inTransaction(orm, async (em) => {
      changes(() => records.scope(em, ORGANIZATION, context, at));
      await records.write(em);
    });
    expect(records.take()).toEqual({ audits: [], events: [] });
    const { events, audits } = await written();
    expect(events.map(({ envelope }) => envelope.aggregate_id)).toEqual(['w-1', 'w-2']);
    expect(audits.map((row) => [row.objectId, row.occurredAt])).toEqual([
      ['w-1', at],
      ['w-2', later],
    ]);
  });
});
