import { createTestSchema, type TestSchema, waitFor } from '@billing/testing';
import { Migration } from '@mikro-orm/migrations';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_TABLE, type MigrationClass, migrate, openOrm, openPool } from '../src/index.js';
import { migrations } from './migrations/index.js';
import { testEntities, Widget } from './support/entities.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshSchema(): Promise<TestSchema> {
  const testSchema = await createTestSchema('db_migrate');
  cleanups.push(testSchema.drop);
  return testSchema;
}

async function ormFor(testSchema: TestSchema, migrationList: MigrationClass[] = migrations): Promise<MikroORM> {
  const orm = await openOrm({
    clientUrl: testSchema.databaseUrl,
    schema: testSchema.schema,
    entities: testEntities,
    migrations: migrationList,
  });
  cleanups.push(() => orm.close(true));
  return orm;
}

async function tablesIn(orm: MikroORM, schema: string): Promise<string[]> {
  const rows = await orm.em
    .getConnection()
    .execute<{ table_name: string }[]>(
      'select table_name from information_schema.tables where table_schema = ? order by table_name',
      [schema],
    );
  return rows.map((row) => row.table_name);
}

describe('migrate', () => {
  it('builds any schema name from the same migration classes, with the migrations table inside it', async () => {
    const first = await freshSchema();
    const second = await freshSchema();
    const firstOrm = await ormFor(first);
    const secondOrm = await ormFor(second);

    expect(await migrate(firstOrm)).toEqual([migrations[0]!.name]);
    expect(await migrate(secondOrm)).toEqual([migrations[0]!.name]);

    const expected = ['audit_log', MIGRATIONS_TABLE, 'widget', 'widget_part'];
    expect(await tablesIn(firstOrm, first.schema)).toEqual(expected);
    expect(await tablesIn(secondOrm, second.schema)).toEqual(expected);

    // Entities follow the ORM's schema: a row written through one ORM is invisible to the other.
    const em = firstOrm.em.fork();
    em.create(Widget, { id: crypto.randomUUID(), code: 'W-1', quantity: 1 });
    await em.flush();
    expect(await firstOrm.em.fork().count(Widget)).toBe(1);
    expect(await secondOrm.em.fork().count(Widget)).toBe(0);
  });

  it('is idempotent', async () => {
    const orm = await ormFor(await freshSchema());
    expect(await migrate(orm)).toHaveLength(1);
    expect(await migrate(orm)).toEqual([]);
  });

  it('lets exactly one of several starting processes apply the migrations', async () => {
    const testSchema = await freshSchema();
    const orms = await Promise.all([ormFor(testSchema), ormFor(testSchema), ormFor(testSchema)]);

    const results = await Promise.all(orms.map((orm) => migrate(orm)));

    expect(results.flat()).toEqual([migrations[0]!.name]);
    const applied = await orms[0]!.em
      .getConnection()
      .execute(`select name from "${testSchema.schema}"."${MIGRATIONS_TABLE}"`);
    expect(applied).toHaveLength(1);
  });

  it('waits for the advisory lock another migrator holds', async () => {
    const testSchema = await freshSchema();
    const orm = await ormFor(testSchema);
    const holder = new pg.Client({ connectionString: testSchema.databaseUrl });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('select pg_advisory_lock(hashtextextended($1, 0))', [`billing:migrate:${testSchema.schema}`]);

    let finished = false;
    const migration = migrate(orm).then((applied) => {
      finished = true;
      return applied;
    });
    await waitFor(
      async () => {
        const waiting = await holder.query(
          `select 1 from pg_locks
            where locktype = 'advisory' and not granted
              and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
          [`billing:migrate:${testSchema.schema}`],
        );
        return waiting.rowCount === 1;
      },
      { description: 'migrate() to queue behind the advisory lock' },
    );
    expect(finished).toBe(false);
    // The waiting connection names its service, as the ORM's do.
    const { rows: waiters } = await holder.query(
      `select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where l.locktype = 'advisory' and not l.granted
          and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)`,
      [`billing:migrate:${testSchema.schema}`],
    );
    expect(waiters).toEqual([{ application_name: testSchema.schema }]);

    await holder.query('select pg_advisory_unlock_all()');
    expect(await migration).toEqual([migrations[0]!.name]);
  });

  it('fails with a readable error, and does not crash the process, when the lock connection is cut mid-migration', async () => {
    const testSchema = await freshSchema();
    let enter!: () => void;
    const entered = new Promise<void>((resolve) => {
      enter = resolve;
    });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // A migration that waits while the test cuts the lock's connection, as a restart or failover would.
    class Migration20261122100000_gated extends Migration {
      override name = 'Migration20261122100000_gated';
      override async up(): Promise<void> {
        enter();
        await gate;
        this.addSql('create table "gated" ("id" int not null, primary key ("id"));');
      }
    }
    const orm = await ormFor(testSchema, [...migrations, Migration20261122100000_gated]);
    const observer = new pg.Client({ connectionString: testSchema.databaseUrl });
    await observer.connect();
    cleanups.push(() => observer.end());
    const lockKey = `billing:migrate:${testSchema.schema}`;
    const lockHolder = `select pid from pg_locks
      where locktype = 'advisory' and granted and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`;

    const migration = migrate(orm).then(
      (applied) => ({ applied }),
      (error: Error) => ({ error: error.message }),
    );
    await entered;
    const { rows } = await observer.query(`select pg_terminate_backend(pid) as cut from (${lockHolder}) holder`, [
      lockKey,
    ]);
    expect(rows).toEqual([{ cut: true }]);
    // Postgres drops the lock once that backend has gone, after it sent the client its FATAL message.
    await waitFor(async () => (await observer.query(lockHolder, [lockKey])).rowCount === 0, {
      description: 'the cut connection to give up the lock',
    });
    open();

    expect(await migration).toEqual({
      error: `migrations of schema "${testSchema.schema}": the connection holding the migration lock was lost (terminating connection due to administrator command); restart to continue`,
    });
    // What did run is committed whole; a restart finds nothing pending.
    expect(await tablesIn(orm, testSchema.schema)).toEqual([
      'audit_log',
      'gated',
      MIGRATIONS_TABLE,
      'widget',
      'widget_part',
    ]);
    expect(await migrate(orm)).toEqual([]);
  });

  it('refuses schema names that would need quoting', async () => {
    await expect(
      openOrm({ clientUrl: 'postgresql://unused', schema: 'Accounts; drop', entities: testEntities, migrations }),
    ).rejects.toThrow(/Invalid schema name/);
  });
});

describe('openOrm connections', () => {
  const applicationNameOf = async (orm: MikroORM): Promise<string> => {
    const [row] = await orm.em
      .getConnection()
      .execute<{ application_name: string }[]>(
        'select application_name from pg_stat_activity where pid = pg_backend_pid()',
      );
    return row!.application_name;
  };

  it("name the service's schema as their application_name, for pg_stat_activity and the server's log", async () => {
    const testSchema = await freshSchema();
    expect(await applicationNameOf(await ormFor(testSchema))).toBe(testSchema.schema);
  });

  it("of a plain pool (openPool) name the service's schema too", async () => {
    const testSchema = await freshSchema();
    const pool = openPool({ clientUrl: testSchema.databaseUrl, schema: testSchema.schema, max: 1 });
    cleanups.push(() => pool.end());
    const { rows } = await pool.query<{ application_name: string }>(
      'select application_name from pg_stat_activity where pid = pg_backend_pid()',
    );
    expect(rows).toEqual([{ application_name: testSchema.schema }]);
  });

  it("take libpq's PGAPPNAME from the environment over the schema, as pg would", async () => {
    const testSchema = await freshSchema();
    const before = process.env.PGAPPNAME;
    process.env.PGAPPNAME = 'billing-from-env';
    try {
      const orm = await ormFor(testSchema);
      const pool = openPool({ clientUrl: testSchema.databaseUrl, schema: testSchema.schema, max: 1 });
      cleanups.push(() => pool.end());
      const { rows } = await pool.query<{ application_name: string }>(
        'select application_name from pg_stat_activity where pid = pg_backend_pid()',
      );
      expect([await applicationNameOf(orm), rows[0]!.application_name]).toEqual([
        'billing-from-env',
        'billing-from-env',
      ]);
    } finally {
      if (before === undefined) delete process.env.PGAPPNAME;
      else process.env.PGAPPNAME = before;
    }
  });

  it('keep an application_name the database URL sets', async () => {
    const testSchema = await freshSchema();
    const url = new URL(testSchema.databaseUrl);
    url.searchParams.set('application_name', 'billing-replica-7');
    const orm = await openOrm({
      clientUrl: url.toString(),
      schema: testSchema.schema,
      entities: testEntities,
      migrations,
    });
    cleanups.push(() => orm.close(true));
    expect(await applicationNameOf(orm)).toBe('billing-replica-7');
  });
});
