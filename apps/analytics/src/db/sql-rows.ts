import { executeBound, pgArray } from '@billing/db';
import { Decimal } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows to insert, as the `select` of an `insert into <table> (<columns>) select …`: the rows travel
 * as one JSON array (one bound parameter) that jsonb_populate_recordset turns into records of the
 * table's row type, each value converted by its column's type (typmod included) as a bound value
 * would be, and they come out in the given order (`with ordinality`), so a `seq` default numbers
 * them in it. One parameter instead of one per value: for a batch of 250 changes (up to thirty
 * columns a row) binding and planning the values list cost Postgres and the driver about twice as
 * much. Values: scalars only, as the analytics tables hold (strings, finite numbers, booleans, valid
 * Dates as their ISO instant, Decimals (MoneyDecimal too: clones share the prototype) as their text;
 * null or undefined is NULL). Anything else throws: NaN and an invalid Date, which binding refused
 * too and JSON would write as null, and objects, which no column of these tables takes.
 */
export function rowsAsJson<T>(table: string, rows: readonly T[], columns: readonly (keyof T & string)[]): SqlStatement {
  const document = rows.map((row) => {
    const values: Record<string, unknown> = {};
    for (const column of columns) values[column] = jsonScalar(row[column], column);
    return values;
  });
  return {
    sql: `select ${columns.map((column) => `r.${column}`).join(', ')}
      from jsonb_populate_recordset(null::${table}, ?::jsonb) with ordinality as r order by r.ordinality`,
    params: [JSON.stringify(document)],
  };
}

function jsonScalar(value: unknown, column: string): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${column}: ${value} is not a number a column can hold`);
    return value;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error(`${column}: an invalid date`);
    return value.toISOString();
  }
  if (value instanceof Decimal) return value.toString();
  throw new Error(`${column}: ${typeof value} is not a scalar value of the analytics tables`);
}

/**
 * Typed keys as a table to join: `unnest(?::uuid[], ?::uuid[]) as k(a, b)`, an array per column
 * (one value each, not one per key: Postgres parses and plans the same short statement for 5 keys
 * or 500, where a VALUES list of them cost it more than the lookups). Reading rows by a list of
 * keys through a join with it, rather than `where organization_id = ? and id in (…)`, keeps the
 * plan an index lookup per key whether or not the table has planner statistics: without them (a
 * freshly filled table, autovacuum off) the planner takes the organization's condition for
 * selective and scans every row of the organization through its (organization_id, …) index
 * instead, a cost that grows with the organization. For a few hundred keys the planner may still
 * hash a scan of the whole table into the join: rowsPerKey reads each key's rows by a lookup of
 * its own. Values: strings (a uuid in any form Postgres reads), booleans, null.
 */
export function keysTable(
  alias: string,
  columns: ReadonlyArray<readonly [name: string, type: string]>,
  rows: ReadonlyArray<ReadonlyArray<string | boolean | null>>,
): { sql: string; params: unknown[] } {
  return {
    sql: `unnest(${columns.map(([, type]) => `?::${type}[]`).join(', ')}) as ${alias}(${columns.map(([name]) => name).join(', ')})`,
    params: columns.map((_, column) => pgArray(rows.map((row) => row[column] ?? null))),
  };
}

/**
 * The rows of `table` of each key of `keys` (a keysTable aliased `k`, naming `organization_id` and
 * `column`), read by a lookup per key: `cross join lateral (select … where t.column = k.column and
 * (t.organization_id = k.organization_id) is true offset 0) as <alias>`. The `offset 0` keeps the
 * planner from folding the subquery into a join, which it would plan from its estimates: for a
 * batch of 500 keys, without statistics, it hashed a scan of the whole table (a cost that grows
 * with the organization, paid under analytics' organization lock). The lookup goes through an
 * index leading with `column` (each table has one: account_activity_account_idx, …); the
 * organization is tested on the rows found (`is true` keeps it out of the index conditions):
 * without statistics every (organization_id, …) index looked as selective as the key's, and the
 * planner took the smallest, (organization_id, date), reading all of the organization's rows for
 * each key. `filter` tests the rows found too.
 */
export function rowsPerKey(
  keys: SqlStatement,
  table: string,
  column: string,
  options: { alias: string; filter?: SqlStatement },
): SqlStatement {
  const { alias, filter } = options;
  return {
    sql: `${keys.sql}
      cross join lateral (
        select * from ${table} t
         where t.${column} = k.${column} and (t.organization_id = k.organization_id) is true${filter ? ` and (${filter.sql}) is true` : ''}
        offset 0
      ) as ${alias}`,
    params: [...keys.params, ...(filter?.params ?? [])],
  };
}

/** `col = excluded.col, …`: an upsert's update of the given columns to the proposed row's values. */
export const setFromExcluded = (columns: readonly string[]): string =>
  columns.map((column) => `${column} = excluded.${column}`).join(', ');

/** `?, ?, ?` for an `in (…)` list of `count` values. */
export const placeholders = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

/** A statement and its parameters (`?` placeholders, as em.execute takes them). */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/**
 * Runs data-changing statements as one, each a WITH query of it (one round trip instead of one
 * each): they all see the snapshot from before any of them, so they must not read or change each
 * other's rows (different tables, or different rows of one), and each runs to completion.
 */
export async function runWrites(em: EntityManager, statements: ReadonlyArray<SqlStatement | null>): Promise<void> {
  const present = statements.filter((statement): statement is SqlStatement => statement !== null);
  if (present.length === 0) return;
  // Bound (executeBound): hundreds of rows of thirty columns are not written into the text.
  // Prepared: each combination of writes is one constant text (the rows travel as values), so
  // after five calls of a connection Postgres plans none of them again (prepared-statements.ts).
  if (present.length === 1) {
    await executeBound(em, present[0]!.sql, present[0]!.params, { prepared: true });
    return;
  }
  await executeBound(
    em,
    `with ${present.map((statement, i) => `w${i} as (${statement.sql})`).join(', ')} select 1`,
    present.flatMap((statement) => statement.params),
    { prepared: true },
  );
}
