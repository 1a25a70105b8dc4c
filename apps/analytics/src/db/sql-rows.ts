import { executeBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows for a multi-row `values` list: `(?, ?), (?, ?)` and their parameters, the columns of each
 * row in the given order (MikroORM inlines the parameters, so the number of rows is not bounded by
 * the protocol's parameter limit).
 */
export function valuesOf<T>(
  rows: readonly T[],
  columns: readonly (keyof T & string)[],
): { sql: string; params: unknown[] } {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return {
    sql: rows.map(() => tuple).join(', '),
    params: rows.flatMap((row) => columns.map((column) => row[column])),
  };
}

/**
 * A `values` list of typed keys as a table to join: `(values (?::uuid, ?::uuid), …) as k(a, b)`.
 * Reading rows by a list of keys through a join with it, rather than `where organization_id = ?
 * and id in (…)`, keeps the plan an index lookup per key whether or not the table has planner
 * statistics: without them (a freshly filled table, autovacuum off) the planner takes the
 * organization's condition for selective and scans every row of the organization through its
 * (organization_id, …) index instead, a cost that grows with the organization. For a few hundred
 * keys the planner may still hash a scan of the whole table into the join: rowsPerKey reads each
 * key's rows by a lookup of its own.
 */
export function keysTable(
  alias: string,
  columns: ReadonlyArray<readonly [name: string, type: string]>,
  rows: ReadonlyArray<readonly unknown[]>,
): { sql: string; params: unknown[] } {
  const tuple = `(${columns.map(([, type]) => `?::${type}`).join(', ')})`;
  return {
    sql: `(values ${rows.map(() => tuple).join(', ')}) as ${alias}(${columns.map(([name]) => name).join(', ')})`,
    params: rows.flat(),
  };
}

/**
 * The rows of `table` of each key of `keys` (a keysTable aliased `k`, naming `organization_id` and
 * `column`), read by a lookup per key: `cross join lateral (select … where t.organization_id =
 * k.organization_id and t.column = k.column offset 0) as <alias>`. The `offset 0` keeps the planner
 * from folding the subquery into a join, which it would plan from its estimates: for a batch of 500
 * keys, without statistics, it hashed a scan of the whole table (a cost that grows with the
 * organization, paid under analytics' organization lock). `filter` tests the rows found, `(…) is
 * true` so that it never becomes the way in.
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
         where t.organization_id = k.organization_id and t.${column} = k.${column}${filter ? ` and (${filter.sql}) is true` : ''}
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
  if (present.length === 1) {
    await executeBound(em, present[0]!.sql, present[0]!.params);
    return;
  }
  await executeBound(
    em,
    `with ${present.map((statement, i) => `w${i} as (${statement.sql})`).join(', ')} select 1`,
    present.flatMap((statement) => statement.params),
  );
}
