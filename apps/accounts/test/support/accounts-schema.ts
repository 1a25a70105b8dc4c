import type { Clock } from '@billing/clock';
import { migrate, openOrm, openPool } from '@billing/db';
import { createTestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { accountsEntities } from '../../src/db/entities/index.js';
import { migrations } from '../../src/db/migrations/index.js';

/** A migrated throwaway accounts schema with what the use cases and event handlers need, no service. */
export interface AccountsSchema {
  schema: string;
  orm: MikroORM;
  pool: pg.Pool;
  clock: Clock;
  close(): Promise<void>;
}

export async function openAccountsSchema(clock: Clock): Promise<AccountsSchema> {
  const database = await createTestSchema('accounts');
  const orm = await openOrm({
    clientUrl: database.databaseUrl,
    schema: database.schema,
    entities: accountsEntities,
    migrations,
  });
  await migrate(orm);
  const pool = openPool({ clientUrl: database.databaseUrl, schema: database.schema });
  return {
    schema: database.schema,
    orm,
    pool,
    clock,
    async close() {
      await pool.end();
      await orm.close();
      await database.drop();
    },
  };
}

/**
 * Copies every row of `from`'s tables (but the migrations' own) into `to`, a schema migrated
 * alike: both then start from the same organizations, accounts and webhooks, ids included.
 */
export async function copyRows(from: AccountsSchema, to: AccountsSchema): Promise<void> {
  const { rows } = await from.pool.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = $1 and table_type = 'BASE TABLE' and table_name not like 'mikro_orm%'`,
    [from.schema],
  );
  for (const { table_name: table } of rows) {
    await to.pool.query(`insert into "${to.schema}"."${table}" select * from "${from.schema}"."${table}"`);
  }
}
