import { randomUUID } from 'node:crypto';
import { decodeEnvelope } from '@billing/events';
import { subscriptionsRenewedTotal } from '@billing/observability';
import { waitFor } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAllDue } from '../src/use-cases/subscriptions/process-due.js';
import { type EngineDatabase, engineDatabase, seedDueSubscriptions } from './support/engine-database.js';

const START = new Date('2026-03-15T09:00:00Z');
const RENEWAL = new Date('2026-04-15T08:00:00Z'); // 10:00 in Copenhagen after the DST change

async function chargeCounts(orm: MikroORM, organizationId: string) {
  const rows = await orm.em
    .getConnection()
    .execute<{ period_start: Date; charges: string; subscriptions: string; amount: string }[]>(
      `select period_start, count(*) as charges, count(distinct subscription_id) as subscriptions, sum(amount) as amount
       from charge where organization_id = ? group by period_start order by period_start`,
      [organizationId],
    );
  return rows.map((row) => ({
    period_start: new Date(row.period_start).toISOString(),
    charges: Number(row.charges),
    subscriptions: Number(row.subscriptions),
    amount: String(row.amount),
  }));
}

/** billing_subscriptions_renewed_total of this process (the replicas below share it). */
async function renewalsCounted(): Promise<number> {
  return (await subscriptionsRenewedTotal.get()).values[0]?.value ?? 0;
}

async function outboxCount(orm: MikroORM, eventType: string): Promise<number> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from outbox where subject = ?`, [`subscriptions.${eventType}`]);
  return Number(row!.n);
}

describe('renewal scheduler', () => {
  let database: EngineDatabase;
  beforeAll(async () => {
    database = await engineDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('two replicas over 1,000 due subscriptions make exactly 1,000 charges per period', async () => {
    const organizationId = randomUUID();
    const replicaA = await database.open();
    const replicaB = await database.open();
    await seedDueSubscriptions(replicaA, {
      organizationId,
      count: 1000,
      start: START,
      price: '100.00',
      timeZone: 'Europe/Copenhagen',
    });

    const counted = await renewalsCounted();
    const work = { now: START, testClockOrganization: null, batchSize: 50 };
    const [a, b] = await Promise.all([processAllDue(replicaA, work), processAllDue(replicaB, work)]);
    // Their first period starts: activations, not renewals.
    expect(await renewalsCounted()).toBe(counted);
    expect(a + b).toBe(1000);
    expect(await chargeCounts(replicaA, organizationId)).toEqual([
      { period_start: START.toISOString(), charges: 1000, subscriptions: 1000, amount: '100000.000000' },
    ]);

    const renewal = { ...work, now: RENEWAL };
    await Promise.all([
      processAllDue(replicaA, renewal),
      processAllDue(replicaB, renewal),
      processAllDue(replicaA, renewal),
    ]);
    expect(await chargeCounts(replicaA, organizationId)).toEqual([
      { period_start: START.toISOString(), charges: 1000, subscriptions: 1000, amount: '100000.000000' },
      { period_start: RENEWAL.toISOString(), charges: 1000, subscriptions: 1000, amount: '100000.000000' },
    ]);
    expect(await outboxCount(replicaA, 'charge.created')).toBe(2000);
    // Each renewal counted once, by the replica whose transaction committed it.
    expect(await renewalsCounted()).toBe(counted + 1000);

    // Nothing else is due: more passes change nothing.
    expect(await processAllDue(replicaB, renewal)).toBe(0);
    expect(await outboxCount(replicaA, 'charge.created')).toBe(2000);
  }, 120_000);

  it('hands the events of every batch over once, in commit order, one batch at a time, and answers after the last', async () => {
    const organizationId = randomUUID();
    const worker = await database.open();
    await seedDueSubscriptions(worker, {
      organizationId,
      count: 250,
      start: START,
      price: '10.00',
      timeZone: 'Europe/Copenhagen',
    });
    const handedOver: string[][] = [];
    let running = 0;
    let overlapping = false;
    let lastEnded = false;
    const processed = await processAllDue(
      worker,
      { now: START, testClockOrganization: null, batchSize: 100 },
      {
        committedEvents: async (events, context) => {
          if (running > 0) overlapping = true;
          running++;
          lastEnded = false;
          // A slow read model: the next batch is processed meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 50));
          expect(context.organizationId).toBe(organizationId);
          handedOver.push(events.map((event) => event.event_id));
          running--;
          lastEnded = true;
        },
      },
    );
    expect(processed).toBe(250);
    // Answered once the last hand-over ended, never two at once.
    expect(lastEnded).toBe(true);
    expect(overlapping).toBe(false);
    // Three batches (100, 100, 50), each handed over once with all its events, in the outbox's order.
    expect(handedOver).toHaveLength(3);
    const outbox = await worker.em
      .getConnection()
      .execute<{ payload: Buffer }[]>('select payload from outbox order by position');
    const written = outbox
      .map((row) => decodeEnvelope(row.payload))
      .filter((envelope) => envelope.organization_id === organizationId)
      .map((envelope) => envelope.event_id);
    expect(written.length).toBeGreaterThanOrEqual(250);
    expect(handedOver.flat()).toEqual(written);
  }, 120_000);

  it('a worker whose database session dies between claim and commit loses nothing and doubles nothing', async () => {
    const organizationId = randomUUID();
    const observer = await database.open();
    const doomed = await database.open();
    await seedDueSubscriptions(observer, {
      organizationId,
      count: 300,
      start: START,
      price: '49.95',
      timeZone: 'Europe/Copenhagen',
    });
    const before = await outboxCount(observer, 'charge.created');

    // One batch of 300 in one transaction; its session is terminated while the rows are claimed.
    const batch = processAllDue(doomed, { now: START, testClockOrganization: null, batchSize: 300 }).catch(
      (error: unknown) => error,
    );
    const claimer = await waitFor(
      async () => {
        const [row] = await observer.em.getConnection().execute<{ pid: number }[]>(
          `select l.pid from pg_locks l join pg_class c on c.oid = l.relation
            where c.relname = 'subscription' and l.mode = 'RowShareLock' and l.pid <> pg_backend_pid()
              and c.relnamespace = (select oid from pg_namespace where nspname = ?)`,
          [database.schema.schema],
        );
        return row?.pid;
      },
      { timeoutMs: 20_000, intervalMs: 5 },
    );
    await observer.em.getConnection().execute('select pg_terminate_backend(?)', [claimer]);
    await batch;

    // Whatever the dying worker managed, a healthy one finishes: exactly one charge each.
    await processAllDue(observer, { now: START, testClockOrganization: null, batchSize: 100 });
    expect(await chargeCounts(observer, organizationId)).toEqual([
      { period_start: START.toISOString(), charges: 300, subscriptions: 300, amount: '14985.000000' },
    ]);
    expect((await outboxCount(observer, 'charge.created')) - before).toBe(300);
  }, 120_000);
});
