import pg from 'pg';
import { defaultApplicationName } from './application-name.js';
import { assertSchemaName } from './schema-name.js';

export interface OpenPoolOptions {
  clientUrl: string;
  /** Every connection starts with search_path set to this schema, as the ORM's do. */
  schema: string;
  max?: number;
}

/**
 * A plain pg pool on the service's schema, for the hot read paths where hydrating entities costs
 * more than the query itself (see bench/). Writes stay on the ORM: one transaction per change.
 */
export function openPool(options: OpenPoolOptions): pg.Pool {
  const schema = assertSchemaName(options.schema);
  const pool = new pg.Pool({
    connectionString: options.clientUrl,
    max: options.max ?? 10,
    options: `-c search_path=${schema}`,
    // As the ORM's connections (openOrm); an application_name in the URL wins (pg reads the URL last).
    application_name: defaultApplicationName(schema),
  });
  // An idle connection cut by the server (restart, failover, pg_terminate_backend) is reported as a
  // pool 'error' event; unheard, it kills the process. pg-pool has already dropped that client and
  // the next query opens a fresh one, as MikroORM's own pool does.
  pool.on('error', () => {});
  return pool;
}
