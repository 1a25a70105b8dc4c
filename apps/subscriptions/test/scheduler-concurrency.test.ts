/**
 * SCHEDULER_CONCURRENCY, as an operator sets it on the built service (dist/main.js): one scheduler
 * renews that many batches at once, each in its own transaction on rows the others skip (as
 * replicas do: scheduler.test.ts runs two over 1,000 subscriptions). What shows it: with the
 * charge table share-locked by the test, every batch in flight waits at its first charge insert,
 * so the scheduler's waiting transactions are its batches at once. Released, each subscription is
 * charged once. A value out of range stops the process at start, naming the variable.
 */

import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { type BuiltService, startBuiltService, testNatsUrl, waitFor } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { type EngineDatabase, engineDatabase, seedDueSubscriptions } from './support/engine-database.js';

const MAIN = path.resolve(import.meta.dirname, '../dist/main.js');
const DUE_SUBSCRIPTIONS = 4;

let database: EngineDatabase | undefined;
let service: BuiltService | undefined;
let blocker: pg.Client | undefined;

afterEach(async () => {
  await service?.kill();
  await blocker?.end();
  await database?.close();
  service = blocker = database = undefined;
});

/** A migrated schema with DUE_SUBSCRIPTIONS subscriptions due an hour ago. */
async function dueSchema(): Promise<MikroORM> {
  database = await engineDatabase();
  const orm = await database.open();
  await seedDueSubscriptions(orm, {
    organizationId: randomUUID(),
    count: DUE_SUBSCRIPTIONS,
    start: new Date(Date.now() - 3_600_000),
    price: '100.00',
    timeZone: 'Europe/Copenhagen',
  });
  return orm;
}

/** The subscriptions process on the schema, one subscription per batch, with `variables` added. */
function startSubscriptions(variables: Record<string, string>): BuiltService {
  service = startBuiltService(MAIN, {
    DATABASE_URL: database!.schema.databaseUrl,
    DB_SCHEMA: database!.schema.schema,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    // Nothing listens there: the hand-over of committed changes to accounts fails, and is only logged.
    ACCOUNTS_ADDRESS: '127.0.0.1:1',
    LOG_LEVEL: 'error',
    SCHEDULER_BATCH_SIZE: '1',
    SCHEDULER_INTERVAL_MS: '50',
    ...variables,
  });
  return service;
}

/** Holds the charge table in share mode (inserts wait) until `release`. */
async function blockCharges(): Promise<{ release: () => Promise<void> }> {
  blocker = new pg.Client({ connectionString: database!.schema.databaseUrl });
  await blocker.connect();
  await blocker.query('begin');
  await blocker.query(`lock table "${database!.schema.schema}".charge in share mode`);
  return { release: async () => void (await blocker!.query('commit')) };
}

/** The scheduler's transactions waiting for the charge table, once their number has settled. */
async function batchesWaiting(orm: MikroORM): Promise<number> {
  const connection = orm.em.getConnection();
  const waiting = async () => {
    const [row] = await connection.execute<{ n: string }[]>(
      `select count(*) as n from pg_locks where not granted and relation = ?::regclass`,
      [`"${database!.schema.schema}".charge`],
    );
    return Number(row!.n);
  };
  await waitFor(async () => ((await waiting()) > 0 ? true : undefined), {
    timeoutMs: 20_000,
    description: 'a renewal batch waiting for the charge table',
  });
  // Every loop claims at once when a pass starts: the count settles within a few passes.
  await new Promise((resolve) => setTimeout(resolve, 700));
  return waiting();
}

async function chargedSubscriptions(orm: MikroORM): Promise<{ charges: number; subscriptions: number }> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ charges: string; subscriptions: string }[]>(
      'select count(*) as charges, count(distinct subscription_id) as subscriptions from charge',
    );
  return { charges: Number(row!.charges), subscriptions: Number(row!.subscriptions) };
}

async function expectEachChargedOnce(orm: MikroORM): Promise<void> {
  await waitFor(
    async () => ((await chargedSubscriptions(orm)).subscriptions === DUE_SUBSCRIPTIONS ? true : undefined),
    { timeoutMs: 20_000, description: `${DUE_SUBSCRIPTIONS} subscriptions charged` },
  );
  expect(await chargedSubscriptions(orm)).toEqual({ charges: DUE_SUBSCRIPTIONS, subscriptions: DUE_SUBSCRIPTIONS });
}

it('renews two batches at once by default, each subscription once', async () => {
  const orm = await dueSchema();
  const charges = await blockCharges();
  startSubscriptions({});
  expect(await batchesWaiting(orm)).toBe(2);
  await charges.release();
  await expectEachChargedOnce(orm);
});

it('renews as many batches at once as SCHEDULER_CONCURRENCY says', async () => {
  const orm = await dueSchema();
  const charges = await blockCharges();
  startSubscriptions({ SCHEDULER_CONCURRENCY: '1' });
  expect(await batchesWaiting(orm)).toBe(1);
  await charges.release();
  await expectEachChargedOnce(orm);
});

it('refuses to start with SCHEDULER_CONCURRENCY=0, naming it', async () => {
  await dueSchema();
  const { child, stderr } = startSubscriptions({ SCHEDULER_CONCURRENCY: '0' });
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).not.toBe(0);
  expect(stderr()).toContain('SCHEDULER_CONCURRENCY');
});
