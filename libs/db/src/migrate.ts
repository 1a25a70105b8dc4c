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
  const lockConnection = new pg.Client(orm.em.getConnection().getConnectionOptions());
  await lockConnection.connect();
  try {
    await lockConnection.query('select pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
    await lockConnection.query(`create schema if not exists "${schema}"`);
    const applied = await orm.migrator.up();
    return applied.map((migration) => migration.name);
  } finally {
    // Ending the session releases the advisory lock even if the unlock query cannot run.
    await lockConnection.end();
  }
}
