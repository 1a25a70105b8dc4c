import pg from 'pg';
import type { HttpLogger } from '../http/http-logger.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A table of the gateway's own schema (rate limits, idempotency keys), named for SQL text. */
export interface GatewayTable {
  schemaName: string;
  /** `"schema"."table"`, ready to splice into SQL. */
  qualified: string;
}

/**
 * Names `table` in `schema`, checking the schema name first: identifiers cannot be bound
 * parameters, so the name is spliced into SQL text and must be a plain identifier.
 */
export function gatewayTable(schema: string, table: string, what: string): GatewayTable {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid ${what} schema name: ${schema}`);
  return { schemaName: schema, qualified: `"${schema}"."${table}"` };
}

/**
 * A pool on the gateway's database. An idle connection cut by the server (restart, failover)
 * arrives as a pool 'error' event, which would kill the process unheard; the pool has already
 * dropped that client and reconnects on use. Logged with the message and code only: pg attaches
 * the whole client (config, parser state) to the error.
 */
export function openGatewayPool(config: pg.PoolConfig, logger: HttpLogger): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', (error: Error & { code?: string }) =>
    logger.warn({ err: { message: error.message, code: error.code } }, 'idle database connection lost'),
  );
  return pool;
}

/** How long stop() waits for the pool's connections to close before it goes on regardless. */
const CLOSE_WAIT_MS = 2_000;

/**
 * Ends the pool and waits (at most CLOSE_WAIT_MS) until every connection it had is closed.
 * pg-pool's end() resolves once it has let go of its clients, before the server has closed their
 * connections: `npm start` stops its embedded PostgreSQL right after its services, and on a busy
 * machine the shutdown reached a backend that had not yet read the goodbye, whose "terminating
 * connection" was then logged as a lost idle connection.
 */
export async function closeGatewayPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      closed += 1;
      if (closed >= open) resolve();
    });
  });
  await pool.end();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([allClosed, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
}
