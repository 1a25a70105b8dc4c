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
