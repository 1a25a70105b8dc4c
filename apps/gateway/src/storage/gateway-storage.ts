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
