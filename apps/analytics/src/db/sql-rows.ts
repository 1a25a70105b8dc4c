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
  if (present.length === 1) {
    await em.execute(present[0]!.sql, present[0]!.params, 'run');
    return;
  }
  await em.execute(
    `with ${present.map((statement, i) => `w${i} as (${statement.sql})`).join(', ')} select 1`,
    present.flatMap((statement) => statement.params),
    'run',
  );
}
