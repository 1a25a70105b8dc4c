import type pg from 'pg';
import { quoteIdentifier } from './database.js';

/**
 * The rows a billing run wrote, kept so that a program can write them again (run-replay-baseline.ts,
 * bench:billing-run's whole-run baseline). Three steps, none of them timed:
 *
 * 1. `copySchemas`, while the platform is quiet just before the run: a copy of each service schema
 *    (`<prefix>_<schema>`: the same tables, columns, defaults, checks and indexes) holding every row
 *    as it is then. The services' schemas have no foreign keys, triggers, generated or identity
 *    columns (the copy refuses a schema that has), so the copy's tables check and maintain what
 *    theirs do.
 * 2. `stageRunRows`, once the run has settled, in one snapshot: every row that differs between a
 *    service's table and its copy (inserted, updated, deleted) goes into `<prefix>_stage.run_row` in
 *    its text form (`row::text`, which its table's row type reads back exactly), in the order of the
 *    transactions that last wrote it (xmin), cut into `batches` of equal size; and each table's
 *    digest (row count and a hash of its rows' text) goes into `<prefix>_stage.expected`.
 * 3. After the replay wrote the staged rows into the copies: `replayProblems` compares each copy's
 *    digest with its table's. Equal digests: the replay wrote the very rows the run left behind.
 *
 * A row the run wrote several times (an outbox row inserted, then marked published) is staged once,
 * as it ended up: the replay writes each row's final state once. Rows are written in their final
 * state in last-write order, so a unique value handed from one row to another during the run could
 * make the replay fail (loudly); the services' tables have no such pattern.
 */

export interface RunReplay {
  /** The copies' schema names start with it. */
  prefix: string;
  schemas: readonly string[];
}

export interface ReplayTable {
  schema: string;
  table: string;
  columns: string[];
  key: string[];
}

export const copySchemaOf = (replay: RunReplay, schema: string) => `${replay.prefix}_${schema}`;
export const stageSchemaOf = (replay: RunReplay) => `${replay.prefix}_stage`;

const q = quoteIdentifier;

/** The tables of `schema` with their columns (in order) and primary key columns. */
export async function replayTables(db: pg.ClientBase | pg.Pool, schema: string): Promise<ReplayTable[]> {
  const { rows } = await db.query<{ table: string; columns: string[]; key: string[] | null }>(
    `select c.relname as table,
       array(select a.attname::text from pg_attribute a
             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns,
       array(select a.attname::text from pg_constraint k cross join unnest(k.conkey) with ordinality u(attnum, i)
             join pg_attribute a on a.attrelid = c.oid and a.attnum = u.attnum
             where k.conrelid = c.oid and k.contype = 'p' order by u.i) as key
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind = 'r'
     order by c.relname`,
    [schema],
  );
  return rows.map((row) => {
    if (!row.key || row.key.length === 0) throw new Error(`${schema}.${row.table} has no primary key to replay by`);
    return { schema, table: row.table, columns: row.columns, key: row.key };
  });
}

/**
 * Copies every schema's tables, rows included, in one snapshot (repeatable read): the state the
 * run starts from. Refuses what the copy (or the replay's `insert … select *`) would not do as the
 * schema does: foreign keys, triggers, generated columns, identity columns.
 */
export async function copySchemas(client: pg.ClientBase, replay: RunReplay): Promise<void> {
  const { rows: unsupported } = await client.query<{ what: string }>(
    `select conrelid::regclass::text || ' has a foreign key' as what from pg_constraint
       where contype = 'f' and connamespace = any($1::regnamespace[])
     union all
     select tgrelid::regclass::text || ' has a trigger' from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where not t.tgisinternal and c.relnamespace = any($1::regnamespace[])
     union all
     select attrelid::regclass::text || '.' || attname || ' is generated' from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       where c.relnamespace = any($1::regnamespace[]) and c.relkind = 'r' and a.attnum > 0
         and not a.attisdropped and (a.attgenerated <> '' or a.attidentity <> '')`,
    [replay.schemas.map((schema) => q(schema))],
  );
  if (unsupported.length > 0)
    throw new Error(`cannot copy for the replay: ${unsupported.map((row) => row.what).join(', ')}`);
  await inSnapshot(client, async () => {
    for (const schema of replay.schemas) {
      const copy = q(copySchemaOf(replay, schema));
      await client.query(`create schema ${copy}`);
      for (const { table } of await replayTables(client, schema)) {
        await client.query(`create table ${copy}.${q(table)} (like ${q(schema)}.${q(table)} including all)`);
        await copyStorageParameters(client, `${q(schema)}.${q(table)}`, `${copy}.${q(table)}`);
        await client.query(`insert into ${copy}.${q(table)} select * from ${q(schema)}.${q(table)}`);
      }
    }
  });
  for (const schema of replay.schemas) {
    for (const { table } of await replayTables(client, copySchemaOf(replay, schema)))
      await client.query(`analyze ${q(copySchemaOf(replay, schema))}.${q(table)}`);
  }
}

/**
 * `work` in one repeatable-read transaction, with the rows' text pinned to one time zone and date
 * style (their text is compared and hashed, here and in replayProblems' own transaction).
 */
async function inSnapshot<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('begin isolation level repeatable read');
  try {
    await client.query("set local timezone = 'UTC'");
    await client.query("set local datestyle = 'ISO, YMD'");
    const result = await work();
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

const keyMatch = (key: readonly string[], left: string, right: string) =>
  key.map((column) => `${left}.${q(column)} = ${right}.${q(column)}`).join(' and ');

/** A digest of a table's rows: their number and a hash of their text, whatever their order. */
const digestOf = (qualified: string) =>
  `select count(*)::bigint::text as rows,
     coalesce(md5(string_agg(h, '' order by h)), '') as digest
   from (select md5(t::text) as h from ${qualified} t) rows`;

export interface StagedRun {
  /** Rows staged: inserted, updated and deleted by the run. */
  inserted: number;
  updated: number;
  deleted: number;
  /** Staged rows per table (`schema.table`), busiest first. */
  perTable: Array<{ table: string; inserted: number; updated: number; deleted: number }>;
  batches: number;
}

/**
 * Stages every row the run changed, in `batches` batches (step 2 above), all of it in one snapshot:
 * a service still writing meanwhile (a mail worker marking mails sent) is staged as the snapshot
 * saw it, rows and digests alike.
 */
export async function stageRunRows(client: pg.ClientBase, replay: RunReplay, batches: number): Promise<StagedRun> {
  const stage = q(stageSchemaOf(replay));
  await inSnapshot(client, async () => {
    await client.query(`create schema ${stage}`);
    // Staged unbatched first, then copied into run_row with each row's batch (rather than updating
    // every row of a table that may hold millions; the window sorts keys, not the rows),
    // indexed by batch for the replay's reads.
    await client.query(
      `create table ${stage}.changed_row (k bigserial primary key, schema text not null, tbl text not null,
         kind text not null, position bigint not null, data text not null)`,
    );
    await client.query(
      `create table ${stage}.run_row (k bigint primary key, batch int not null, schema text not null, tbl text not null,
         kind text not null, position bigint not null, data text not null)`,
    );
    await client.query(
      `create table ${stage}.expected (schema text, tbl text, rows text, digest text, primary key (schema, tbl))`,
    );
    for (const schema of replay.schemas) {
      const copy = q(copySchemaOf(replay, schema));
      for (const { table, key } of await replayTables(client, schema)) {
        const source = `${q(schema)}.${q(table)}`;
        const copied = `${copy}.${q(table)}`;
        await client.query(
          `insert into ${stage}.changed_row (schema, tbl, kind, position, data)
           select $1, $2, case when c.${q(key[0]!)} is null then 'insert' else 'update' end,
             s.xmin::text::bigint, s::text
           from ${source} s left join ${copied} c on ${keyMatch(key, 's', 'c')}
           where c.${q(key[0]!)} is null or s::text <> c::text`,
          [schema, table],
        );
        // A deleted row is staged as it was (the replay deletes by its key).
        await client.query(
          `insert into ${stage}.changed_row (schema, tbl, kind, position, data)
           select $1, $2, 'delete', 0, c::text
           from ${copied} c where not exists (select 1 from ${source} s where ${keyMatch(key, 's', 'c')})`,
          [schema, table],
        );
        await client.query(`insert into ${stage}.expected select $1, $2, d.* from (${digestOf(source)}) d`, [
          schema,
          table,
        ]);
      }
    }
    // Equal batches in the order the run last wrote the rows (the deletes, with no row left to say
    // when, first).
    await client.query(
      `insert into ${stage}.run_row (k, batch, schema, tbl, kind, position, data)
       select c.k, b.batch, c.schema, c.tbl, c.kind, c.position, c.data
       from ${stage}.changed_row c
       join (select k, ntile($1) over (order by position, k) as batch from ${stage}.changed_row) b using (k)`,
      [batches],
    );
    await client.query(`drop table ${stage}.changed_row`);
    await client.query(`create index on ${stage}.run_row (batch)`);
  });
  await client.query(`analyze ${stage}.run_row`);
  const { rows } = await client.query<{ tbl: string; kind: string; n: string }>(
    `select schema || '.' || tbl as tbl, kind, count(*)::text as n from ${stage}.run_row group by 1, 2`,
  );
  const perTable = new Map<string, { table: string; inserted: number; updated: number; deleted: number }>();
  for (const row of rows) {
    const entry = perTable.get(row.tbl) ?? { table: row.tbl, inserted: 0, updated: 0, deleted: 0 };
    const n = Number(row.n);
    if (row.kind === 'insert') entry.inserted += n;
    else if (row.kind === 'update') entry.updated += n;
    else entry.deleted += n;
    perTable.set(row.tbl, entry);
  }
  const tables = [...perTable.values()].sort(
    (a, b) =>
      b.inserted + b.updated + b.deleted - (a.inserted + a.updated + a.deleted) || a.table.localeCompare(b.table),
  );
  const sum = (pick: (entry: (typeof tables)[number]) => number) => tables.reduce((total, t) => total + pick(t), 0);
  const { rows: counted } = await client.query<{ n: number }>(
    `select count(distinct batch)::int as n from ${stage}.run_row`,
  );
  return {
    inserted: sum((t) => t.inserted),
    updated: sum((t) => t.updated),
    deleted: sum((t) => t.deleted),
    perTable: tables,
    batches: counted[0]!.n,
  };
}

/**
 * Staged rows (not deletes) last written by a transaction at or after `transaction` (a full
 * transaction id, pg_current_snapshot()'s; the rows carry its low 32 bits).
 */
export async function stagedSince(client: pg.ClientBase, replay: RunReplay, transaction: bigint): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from ${q(stageSchemaOf(replay))}.run_row where kind <> 'delete' and position >= $1`,
    [(transaction % 4294967296n).toString()],
  );
  return rows[0]!.n;
}

/** Where a copy's rows differ from what its table held when the run was staged (step 3 above). */
export async function replayProblems(client: pg.ClientBase, replay: RunReplay): Promise<string[]> {
  const stage = q(stageSchemaOf(replay));
  return inSnapshot(client, async () => {
    const { rows: expected } = await client.query<{ schema: string; tbl: string; rows: string; digest: string }>(
      `select schema, tbl, rows, digest from ${stage}.expected order by schema, tbl`,
    );
    const problems: string[] = [];
    for (const table of expected) {
      const { rows } = await client.query<{ rows: string; digest: string }>(
        digestOf(`${q(copySchemaOf(replay, table.schema))}.${q(table.tbl)}`),
      );
      const found = rows[0]!;
      if (found.rows !== table.rows || found.digest !== table.digest)
        problems.push(
          `${table.schema}.${table.tbl}: the replay left ${found.rows} rows${found.digest === table.digest ? '' : ' of other content'}, the run ${table.rows}`,
        );
    }
    return problems;
  });
}

/** Drops the copies and the stage. */
export async function dropReplay(client: pg.ClientBase | pg.Pool, replay: RunReplay): Promise<void> {
  for (const schema of [...replay.schemas.map((s) => copySchemaOf(replay, s)), stageSchemaOf(replay)])
    await client.query(`drop schema if exists ${q(schema)} cascade`);
}

/**
 * `like … including all` leaves out a table's storage parameters (the outbox's fillfactor): the
 * copy gets them too, so the baseline writes its rows into pages laid out as the platform's are.
 */
async function copyStorageParameters(client: pg.ClientBase, table: string, copy: string): Promise<void> {
  const { rows } = await client.query<{ options: string[] | null }>(
    'select reloptions as options from pg_class where oid = $1::regclass',
    [table],
  );
  const options = rows[0]?.options;
  if (options && options.length > 0) await client.query(`alter table ${copy} set (${options.join(', ')})`);
}
