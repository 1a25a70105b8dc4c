/**
 * A connection PostgreSQL cuts in the middle of a transaction (restart, failover) must not stay
 * checked out of the ORM's pool: the transaction fails, the pool discards the connection, later
 * transactions run on a fresh one, and closing the ORM returns (a service can still stop).
 */
import { testDatabaseUrl, waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../src/index.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('db_cut');
});
afterAll(async () => db?.dispose());

async function terminateBackend(pid: number): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await client.end();
  }
}

/** A transaction whose connection the server terminates between two of its statements. */
const cutTransaction = () =>
  inTransaction(db.orm, async (em) => {
    const [row] = await em
      .getConnection()
      .execute<{ pid: number }[]>('select pg_backend_pid() as pid', [], 'all', em.getTransactionContext());
    await terminateBackend(row!.pid);
    await em.getConnection().execute('select 1', [], 'all', em.getTransactionContext());
  });

it('a transaction whose connection is cut fails and gives the connection back to the pool', async () => {
  const pool: pg.Pool = await db.orm.em.getConnection().getNativeClient();
  await expect(cutTransaction()).rejects.toThrow();

  // Without the fix the connection stays checked out forever: totalCount 1, idleCount 0.
  await waitFor(() => pool.totalCount === pool.idleCount, { description: 'no connection left checked out' });
  expect(await inTransaction(db.orm, async () => 'runs again')).toBe('runs again');
});

it('closing the ORM returns after a cut (a service stopping on SIGTERM does not hang)', async () => {
  await expect(cutTransaction()).rejects.toThrow();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise((resolve) => {
    timer = setTimeout(resolve, 5_000, 'still open after 5 s');
  });
  expect(await Promise.race([db.orm.close().then(() => 'closed'), hung])).toBe('closed');
  clearTimeout(timer);
});
