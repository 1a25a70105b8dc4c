import type { IncomingHttpHeaders } from 'node:http';

/** Kept whatever `Fields` says: every object of the contract carries them. */
export const ALWAYS_KEPT_FIELDS: readonly string[] = ['model', 'schema'];

/**
 * The field names of a `Fields: uuid,code,company_name` request header, or null when the header
 * is absent or names nothing (then objects are returned whole).
 */
export function parseFieldsHeader(header: string | undefined): ReadonlySet<string> | null {
  if (header === undefined) return null;
  const names = header
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? null : new Set([...names, ...ALWAYS_KEPT_FIELDS]);
}

/**
 * Whether a response shaped by the request's `Fields` header keeps the field `name` (always, when
 * the header is absent or names nothing): an answer may then skip the work of filling it.
 */
export function fieldsHeaderKeeps(headers: IncomingHttpHeaders, name: string): boolean {
  const fields = parseFieldsHeader(typeof headers.fields === 'string' ? headers.fields : undefined);
  return fields === null || fields.has(name);
}

/**
 * Keeps only the named top-level fields of an object. Names the object does not have are
 * ignored (so a misspelt name drops nothing but itself); non-objects pass through.
 */
export function projectFields<Value>(value: Value, fields: ReadonlySet<string> | null): Value {
  if (fields === null || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => fields.has(name))) as Value;
}
