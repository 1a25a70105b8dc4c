import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { assertSchemaName } from './schema-name.js';

/**
 * Creates the service schema if missing and applies pending migrations; returns the names applied.
 *
 * Replicas of a service start together (and a Helm migration Job may run beside them), so the work
 * is serialised with a Postgres advisory lock keyed by the schema: the first process migrates, the
 * others wait, then find nothing pending. The lock lives on its own connection so a small ORM pool
 * cannot deadlock against it, and Postgres releases it if the process dies.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const schema = assertSchemaName(orm.config.get('schema') ?? '');
  const lockKey = `billing:migrate:${schema}`;
  const lockConnection = new pg.Client({
    ...orm.em.getConnection().getConnectionOptions(),
    // Named as the ORM's connections (openOrm): replicas waiting here show whose they are.
    application_name: orm.config.get('driverOptions')?.application_name,
  });
  // The lock connection sits idle while the migrations run on the ORM's pool. If the server cuts it
  // then (restart, failover), pg reports that as an 'error' event, which unheard kills the process
  // mid-migration; heard, it is remembered and the start-up fails below with a readable error.
  let lockLost: Error | undefined;
  lockConnection.on('error', (error) => {
    lockLost ??= error;
  });
  await lockConnection.connect();
  try {
    await lockConnection.query('select pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
    await lockConnection.query(`create schema if not exists "${schema}"`);
    const applied = await orm.migrator.up();
    if (lockLost) {
      // Each migration committed on its own is complete, but another replica may have started
      // migrating beside this one once the lock went: stop here and let a restart re-check.
      throw new Error(
        `migrations of schema "${schema}": the connection holding the migration lock was lost (${lockLost.message}); restart to continue`,
      );
    }
    return applied.map((migration) => migration.name);
  } finally {
    // Ending the session releases the advisory lock even if the unlock query cannot run.
    await lockConnection.end();
  }
}
