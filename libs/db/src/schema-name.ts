const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Schema names end up inside SQL (search_path, create schema, advisory lock keys), so only plain
 * lower-case identifiers are accepted: they need no quoting rules and cannot inject anything.
 */
export function assertSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid schema name "${schema}": use 1-63 characters of [a-z0-9_], not starting with a digit`);
  }
  return schema;
}
