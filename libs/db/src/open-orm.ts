import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { defaultApplicationName } from './application-name.js';
import type { MigrationClass } from './migration-class.js';
import { PreparingClient } from './prepared-statements.js';
import { releaseBrokenConnections } from './release-broken-connections.js';
import { assertSchemaName } from './schema-name.js';

export interface OpenOrmOptions {
  clientUrl: string;
  /** The one schema this service owns, e.g. `accounts` (tests: `accounts_t_ab12cd34`). */
  schema: string;
  /** Explicit entity list: no folder discovery, so tsc output, vitest and bundles behave the same. */
  entities: NonNullable<Options['entities']>;
  /** Ordered migration classes (e.g. the generated `migrations` array of the service). */
  migrations: MigrationClass[];
  debug?: boolean;
  poolMax?: number;
}

export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/**
 * Opens MikroORM for a service that owns one Postgres schema.
 *
 * Entities carry no schema of their own: MikroORM qualifies their tables with `schema`, and the
 * generated migrations are unqualified SQL run with `search_path` set to `schema` (MikroORM's
 * `migrations.schema`), so the same migration classes build `accounts` in production and
 * `accounts_t_ab12cd34` in a test. Every pooled connection also starts with that search_path, so
 * hand-written SQL in a service can name its tables without a schema. Its connections carry the
 * schema as their application_name, so an operator looking at pg_stat_activity sees whose they are.
 */
export async function openOrm(options: OpenOrmOptions): Promise<MikroORM> {
  const schema = assertSchemaName(options.schema);
  return MikroORM.init({
    clientUrl: options.clientUrl,
    schema,
    entities: options.entities,
    extensions: [Migrator],
    // A connection cut mid-transaction would otherwise never return to the pool (see the function).
    // application_name: pg_stat_activity and the server's log name the service of each connection.
    // Client: executeBound's `prepared` statements go out as named prepared statements.
    driverOptions: {
      Client: PreparingClient,
      options: `-c search_path=${schema}`,
      application_name: applicationNameOf(options.clientUrl, schema),
      onPoolCreated: releaseBrokenConnections,
    },
    pool: { max: options.poolMax ?? 10 },
    debug: options.debug ?? false,
    migrations: {
      migrationsList: options.migrations,
      schema,
      tableName: MIGRATIONS_TABLE,
      transactional: true,
      allOrNothing: true,
      // The snapshot belongs to `createMigration` in the source tree; a running service never writes it.
      snapshot: false,
      silent: true,
    },
  });
}

/**
 * The URL's `application_name` when it sets one, empty included, as pg's own pools read a URL
 * (MikroORM builds the connection from the URL's host, port, user, password and database only),
 * else `PGAPPNAME` or the service's schema (defaultApplicationName).
 */
function applicationNameOf(clientUrl: string, schema: string): string {
  return URL.parse(clientUrl)?.searchParams.get('application_name') ?? defaultApplicationName(schema);
}
