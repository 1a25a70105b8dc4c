/**
 * The gateway's stop() closes its pools with closeGatewayPool: it returns only once every
 * connection is closed, not merely let go of (pg-pool's end()), so `npm start` can stop its
 * embedded PostgreSQL right after without the server cutting a connection still open (which the
 * pool's error listener would log as a lost idle connection).
 */
import { testDatabaseUrl } from '@billing/testing';
import pg from 'pg';
import { expect, it, vi } from 'vitest';
import { closeGatewayPool } from '../../src/storage/gateway-storage.js';

/** The socket under a pooled client (pg keeps it on the client's connection). */
const socketOf = (client: pg.PoolClient) =>
  (client as unknown as { connection: { stream: { destroyed: boolean } } }).connection.stream;

it('returns once the connections of the pool, idle and in use when it was called, are closed', async () => {
  const pool = new pg.Pool({ connectionString: testDatabaseUrl(), max: 3 });
  const clients: pg.PoolClient[] = [];
  pool.on('connect', (client) => clients.push(client));
  // Two idle connections, and one in use that is released only after closing began.
  const [first, second, inUse] = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
  await Promise.all([first!.query('select 1'), second!.query('select 1'), inUse!.query('select 1')]);
  first!.release();
  second!.release();
  const closing = closeGatewayPool(pool);
  await inUse!.query('select 2');
  inUse!.release();
  await closing;
  expect(clients).toHaveLength(3);
  expect(clients.map((client) => socketOf(client).destroyed)).toEqual([true, true, true]);
});

it('returns at once for a pool that never connected, without waiting out its bound', async () => {
  // With setTimeout faked, a wait for the bound would never end (and the test would time out).
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  try {
    await closeGatewayPool(new pg.Pool({ connectionString: testDatabaseUrl() }));
  } finally {
    vi.useRealTimers();
  }
});
