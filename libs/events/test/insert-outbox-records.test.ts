import { inTransaction, MAX_BIND_PARAMETERS } from '@billing/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnvelope, insertOutboxRecords, OutboxMessage, outboxRecord } from '../src/index.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('events_outbox_many');
});
afterAll(async () => db?.dispose());

const input = (n: number) => ({
  producer: 'subscriptions',
  eventType: n % 2 === 0 ? 'charge.created' : 'subscription.changed',
  organizationId: 'org-9',
  aggregateType: 'subscription',
  aggregateId: `sub-${n}`,
  payloadType: 'billing.events.v1.ChargeCreated',
  payload: new Uint8Array([n, 0, 255, 92, 39]),
  occurredAt: new Date('2026-04-15T08:00:00Z'),
  requestId: 'scheduler-1',
});

/** Inserts the records with insertOutboxRecords in one transaction, then reads their rows back by position. */
async function storedInOrder(made: ReadonlyArray<ReturnType<typeof outboxRecord>>) {
  await inTransaction(db.orm, (em) =>
    insertOutboxRecords(
      em,
      made.map((one) => one.record),
    ),
  );
  return db.orm.em
    .fork()
    .find(OutboxMessage, { id: { $in: made.map((one) => one.envelope.event_id) } }, { orderBy: { position: 'asc' } });
}

describe('outboxRecord + insertOutboxRecords', () => {
  it('stores the same rows appendToOutbox would, in the given order, in one statement', async () => {
    const made = [0, 1, 2].map((n) => outboxRecord(input(n)));
    const rows = await storedInOrder(made);
    expect(rows.map((row) => row.id)).toEqual(made.map((one) => one.envelope.event_id));
    expect(rows.map((row) => row.subject)).toEqual([
      'subscriptions.charge.created',
      'subscriptions.subscription.changed',
      'subscriptions.charge.created',
    ]);
    for (const [index, row] of rows.entries()) {
      expect(row).toMatchObject({ publishedAt: null, attempts: 0, lastError: null });
      expect(row.createdAt.toISOString()).toBe('2026-04-15T08:00:00.000Z');
      expect(decodeEnvelope(row.payload)).toEqual({
        event_id: row.id,
        event_type: index % 2 === 0 ? 'charge.created' : 'subscription.changed',
        schema_version: 1,
        organization_id: 'org-9',
        occurred_at: new Date('2026-04-15T08:00:00Z'),
        request_id: 'scheduler-1',
        aggregate_type: 'subscription',
        aggregate_id: `sub-${index}`,
        payload_type: 'billing.events.v1.ChargeCreated',
        payload: Buffer.from([index, 0, 255, 92, 39]),
      });
    }
  });

  it('stores more rows than a Bind message could number at nine values a row, in the given order', async () => {
    const count = Math.ceil(MAX_BIND_PARAMETERS / 9) + 3;
    const made = Array.from({ length: count }, (_, n) => outboxRecord({ ...input(n % 200), aggregateId: `many-${n}` }));
    const rows = await storedInOrder(made);
    expect(rows.map((row) => row.id)).toEqual(made.map((one) => one.envelope.event_id));
    expect(rows.map((row) => decodeEnvelope(row.payload).aggregate_id)).toEqual(
      Array.from({ length: count }, (_, n) => `many-${n}`),
    );
  });

  it('gives each row its own payload bytes and trace context, whatever the lengths around it', async () => {
    // The payloads go as one run of bytes that each row takes its slice of: lengths that differ
    // row to row (a long one between short ones) must not shift a slice.
    const made = [0, 1, 2, 3].map((n) => {
      const one = outboxRecord({ ...input(n), payload: new Uint8Array(n === 1 ? 3_000 : n + 1).fill(n + 7) });
      const traced = n % 2 === 1;
      return {
        ...one,
        record: {
          ...one.record,
          traceparent: traced ? `00-${'ab'.repeat(16)}-${String(n).repeat(16)}-01` : null,
          tracestate: traced ? `vendor=${n},"quoted"\\x` : null,
        },
      };
    });
    const rows = await storedInOrder(made);
    expect(rows.map((row) => row.id)).toEqual(made.map((one) => one.envelope.event_id));
    expect(rows.map((row) => Buffer.from(row.payload))).toEqual(made.map((one) => one.record.payload));
    expect(rows.map((row) => decodeEnvelope(row.payload).payload.length)).toEqual([1, 3_000, 3, 4]);
    expect(rows.map((row) => [row.traceparent, row.tracestate])).toEqual([
      [null, null],
      [`00-${'ab'.repeat(16)}-${'1'.repeat(16)}-01`, 'vendor=1,"quoted"\\x'],
      [null, null],
      [`00-${'ab'.repeat(16)}-${'3'.repeat(16)}-01`, 'vendor=3,"quoted"\\x'],
    ]);
  });

  it('runs as a prepared statement on one generic plan after five calls of a connection', async () => {
    // A plan made for each call's values copies the payloads (one bound value of a few hundred
    // kilobytes for a batch) into the plan tree again and again: a millisecond of planning per
    // batch. A generic plan keeps them parameters; Postgres takes it after five calls when it
    // costs no more, which the chooser must find here.
    const planCounts = async (em: Parameters<typeof insertOutboxRecords>[0]) => {
      const [row] = await em.execute<Array<{ generic_plans: string; custom_plans: string }>>(
        `select generic_plans, custom_plans from pg_prepared_statements
          where statement like 'insert into %outbox%' and statement like '%substring%'`,
      );
      return { custom: Number(row?.custom_plans ?? 0), generic: Number(row?.generic_plans ?? 0) };
    };
    // One transaction: one connection, whose earlier calls (other tests') count too.
    const { before, after } = await inTransaction(db.orm, async (em) => {
      const before = await planCounts(em);
      for (let call = 0; call < 8; call++) {
        const batch = Array.from({ length: 200 }, (_, n) =>
          outboxRecord({ ...input(n), aggregateId: `plan-${call}-${n}`, payload: new Uint8Array(700).fill(n) }),
        );
        await insertOutboxRecords(
          em,
          batch.map((one) => one.record),
        );
      }
      return { before, after: await planCounts(em) };
    });
    expect(after.custom).toBe(5);
    expect(after.custom - before.custom + (after.generic - before.generic)).toBe(8);
  });

  it('disappears with the transaction that rolls back', async () => {
    const { record } = outboxRecord(input(7));
    await expect(
      inTransaction(db.orm, async (em) => {
        await insertOutboxRecords(em, [record]);
        throw new Error('batch failed after writing');
      }),
    ).rejects.toThrow('batch failed');
    expect(await db.orm.em.fork().count(OutboxMessage, { id: record.id })).toBe(0);
  });
});
