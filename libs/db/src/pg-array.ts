/**
 * A Postgres array literal (`{"a","b",NULL}`) of `values`, passed as one parameter and cast in the
 * statement (`?::uuid[]`, `?::text[]`, `?::timestamptz[]`, …). Why arrays and not one JSON
 * document: `unnest` of an array parameter tells the planner how many rows the batch has, while
 * `jsonb_to_recordset` always counts as 100 rows; with autovacuum off (no statistics) that made a
 * batch of 26 keys look costly enough to hash-join against a sequential scan of the whole table
 * instead of looking each key up in its index. (The ORM writes a JS array parameter as a
 * comma-separated list, hence the literal.)
 *
 * Every element is quoted (backslash and double quote escaped), so any text is safe; null is NULL;
 * a Date is written as its ISO instant, a boolean as true or false.
 */
export function pgArray(values: ReadonlyArray<string | number | boolean | Date | null>): string {
  return `{${values.map(arrayElement).join(',')}}`;
}

function arrayElement(value: string | number | boolean | Date | null): string {
  if (value === null) return 'NULL';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
