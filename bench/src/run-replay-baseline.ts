import type pg from 'pg';
import { quoteIdentifier } from './database.js';
import { copySchemaOf, type ReplayTable, type RunReplay, replayTables, stageSchemaOf } from './run-replay.js';

/**
 * bench:billing-run's whole-run baseline: one program writing every row the billing run wrote (in
 * all five services' schemas: renewals, invoices, read models, activities, payments, inboxes and
 * outboxes), as run-replay.ts staged them, into the copies of the schemas, batch after batch: one
 * transaction per batch, one multi-row statement per table and kind of write (the rows travel as
 * one array of the table's row type, each row in its text form: `unnest($1::table[])`). Each
 * batch's rows are read from the stage before its transaction; only the transactions are timed. Nothing is computed: the rows are known, so this is
 * the cost of writing them, the physical limit the issue asks the platform to be measured against.
 */

const q = quoteIdentifier;
const KINDS = ['delete', 'update', 'insert'] as const;
type Kind = (typeof KINDS)[number];

/** The statement writing an array (`$1`, text) of a table's rows of one kind into its copy. */
export function replayStatement(copySchema: string, table: ReplayTable, kind: Kind): string {
  const target = `${q(copySchema)}.${q(table.table)}`;
  const rows = `unnest($1::${target}[])`;
  const keyMatch = table.key.map((column) => `t.${q(column)} = r.${q(column)}`).join(' and ');
  if (kind === 'insert') return `insert into ${target} select * from ${rows}`;
  if (kind === 'delete') return `delete from ${target} t using ${rows} r where ${keyMatch}`;
  const set = table.columns
    .filter((column) => !table.key.includes(column))
    .map((column) => `${q(column)} = r.${q(column)}`)
    .join(', ');
  return `update ${target} t set ${set} from ${rows} r where ${keyMatch}`;
}

/** Writes every staged batch; returns the seconds spent in the batches' transactions. */
export async function replayRunRows(pool: pg.Pool, replay: RunReplay): Promise<number> {
  const statements = new Map<string, string>();
  for (const schema of replay.schemas) {
    for (const table of await replayTables(pool, schema)) {
      for (const kind of KINDS)
        statements.set(`${schema}.${table.table}.${kind}`, replayStatement(copySchemaOf(replay, schema), table, kind));
    }
  }
  const stage = q(stageSchemaOf(replay));
  const { rows: batches } = await pool.query<{ batch: number }>(
    `select distinct batch from ${stage}.run_row order by batch`,
  );
  const client = await pool.connect();
  let seconds = 0;
  try {
    for (const { batch } of batches) {
      const { rows: writes } = await client.query<{ schema: string; tbl: string; kind: Kind; data: string }>(
        `select schema, tbl, kind, array_agg(data order by k)::text as data
         from ${stage}.run_row where batch = $1 group by schema, tbl, kind`,
        [batch],
      );
      writes.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
      const start = performance.now();
      await client.query('begin');
      try {
        for (const write of writes) {
          const statement = statements.get(`${write.schema}.${write.tbl}.${write.kind}`);
          if (!statement) throw new Error(`no table ${write.schema}.${write.tbl} to replay into`);
          await client.query(statement, [write.data]);
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
      seconds += (performance.now() - start) / 1000;
    }
  } finally {
    client.release();
  }
  return seconds;
}
