/**
 * The billing run's advisory-lock sampler (advisory-lock-waits.ts) on real Postgres: connections
 * named as a service would be wait for an advisory lock another holds, and the samples count them.
 */
import { randomUUID } from 'node:crypto';
import { testDatabaseUrl } from '@billing/testing';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { AdvisoryLockSampler } from '../src/advisory-lock-waits.js';

const clients: pg.Client[] = [];
const pools: pg.Pool[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

async function connectAs(applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: testDatabaseUrl(), application_name: applicationName });
  await client.connect();
  clients.push(client);
  return client;
}

/** Resolves once `count` connections named `applicationName` wait for an advisory lock. */
async function waitingConnections(pool: pg.Pool, applicationName: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event = 'advisory'`,
      [applicationName],
    );
    if (rows[0]!.n === count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${count} connections of ${applicationName} never waited`);
}

it('counts, per application_name, the polls in which its connections waited for an advisory lock', async () => {
  const service = `lock-sampler-${randomUUID().slice(0, 8)}`;
  const other = `${service}-holder`;
  const key = Math.floor(Math.random() * 2 ** 31);
  const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 });
  pools.push(pool);
  const database = (await pool.query<{ db: string }>('select current_database() as db')).rows[0]!.db;
  const sampler = new AdvisoryLockSampler(pool, database);

  const holder = await connectAs(other);
  await holder.query('select pg_advisory_lock($1)', [key]);
  const waiters = [await connectAs(service), await connectAs(service)];
  const waits = waiters.map((waiter) => waiter.query('select pg_advisory_lock($1)', [key]));
  await waitingConnections(pool, service, 2);

  await sampler.sample();
  await holder.query('select pg_advisory_unlock($1)', [key]);
  // The first waiter takes the lock; the second waits for it until it lets go.
  await waitingConnections(pool, service, 1);
  await sampler.sample();
  // Whichever took it lets go; then the other takes it and lets go.
  const first = await Promise.race(waits.map((wait, index) => wait.then(() => index)));
  await waiters[first]!.query('select pg_advisory_unlock($1)', [key]);
  await waits[1 - first];
  await waiters[1 - first]!.query('select pg_advisory_unlock($1)', [key]);
  await waitingConnections(pool, service, 0);
  await sampler.sample();

  const { polls, waits: seen } = sampler.result();
  expect(polls).toBe(3);
  // Two waiting, then one, then none: 2 of 3 polls, 3 waits in all; the holder never waited.
  expect(seen[service]).toEqual({ polls_waiting: 0.667, mean_waiting: 1 });
  expect(seen[other]).toBeUndefined();
});
