import type pg from 'pg';

/**
 * Gives a pooled connection back the moment the server cuts it while it is checked out.
 *
 * MikroORM 7 runs transactions on kysely's ControlledTransaction, which releases its connection
 * only after a successful COMMIT or ROLLBACK (kysely-org/kysely#1990). When PostgreSQL drops a
 * connection mid-transaction (restart, failover, pg_terminate_backend), the ROLLBACK fails as well
 * and the connection stays checked out for good: each such cut shrinks the pool by one until no
 * query can run, and `orm.close()` (pool.end) never returns, so a service ignores SIGTERM.
 *
 * A client that reported a connection error can never run a query again, so releasing it with the
 * error (which makes the pool discard it) is always right; its holder's own release, if it ever
 * comes, becomes a no-op.
 */
export function releaseBrokenConnections(pool: pg.Pool): void {
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      // An idle client is the pool's business: its own listener discards it.
      if (!checkedOut.has(client)) return;
      checkedOut.delete(client);
      const release = client.release;
      client.release = () => {};
      release.call(client, error);
    });
  });
}
