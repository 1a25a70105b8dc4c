import { Utils } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';
import { prepareStatement } from './prepared-statements.js';

/** What a bound statement gave: its rows (`returning`, `select`) and the rows it changed. */
export interface BoundResult<Row> {
  rows: Row[];
  affectedRows: number;
}

/**
 * Runs one statement in the EntityManager's transaction (or on its pool outside one) with its
 * values sent apart from the text, as bind parameters of Postgres' extended protocol: `?` marks a
 * value (outside quoted literals and identifiers) as in em.execute, which instead writes every
 * value into the text. For the statements that carry a batch (hundreds of rows, a JSON document, event
 * payloads) that escaping and Postgres' lexing of the literals cost more than the statement's own work:
 * MikroORM's formatting was 10-16 % of analytics' and invoicing's CPU in a billing run,
 * and parsing a fifth of Postgres'.
 *
 * Values: a Buffer or Uint8Array goes as bytes (binary, for bytea), a Date as its ISO instant, a
 * bigint or number as its digits, a plain object as its JSON, any other object (a Decimal) as its
 * text (toString); null and undefined as NULL. A JS
 * array is refused: em.execute would spread it into a comma list, pg would make it an array
 * literal; pass pgArray(…) for an array. Beyond MAX_BIND_PARAMETERS values the statement is sent
 * as em.execute sends it (the values in the text), with the same results. Rows come back parsed as em.execute's (the same pool and
 * type parsers); a failure comes out as em.execute's does (the driver's exception: mapDbError and
 * inTransaction's retry treat both alike).
 *
 * `prepared`: the statement's text is the same on every call (no values or lists written into it),
 * and it runs as a named prepared statement, parsed and planned once per connection (see
 * PreparingClient for which statements suit that). On a pool other than openOrm's it runs as any other.
 */
export async function executeBound<Row = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
  options: { prepared?: boolean } = {},
): Promise<BoundResult<Row>> {
  const values = params.map(boundValue);
  if (values.length > MAX_BIND_PARAMETERS) {
    // More than the protocol's Bind message can number: written into the text, as em.execute does.
    const result = await em.execute<{ affectedRows: number; rows: Row[] }>(sql, values, 'run');
    return { rows: result.rows, affectedRows: result.affectedRows };
  }
  const text = numberedPlaceholders(sql, params.length);
  if (options.prepared) prepareStatement(text);
  const transaction = em.getTransactionContext<Kysely<unknown>>();
  const executor = transaction ?? em.getConnection().getClient();
  try {
    const result = await executor.executeQuery<Row>(CompiledQuery.raw(text, values));
    return {
      rows: result.rows as Row[],
      affectedRows: Number(result.numAffectedRows ?? BigInt(result.rows.length)),
    };
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}

/** executeBound's rows: for a read, as em.execute(sql, params) answers it. */
export async function selectBound<Row = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
  options: { prepared?: boolean } = {},
): Promise<Row[]> {
  return (await executeBound<Row>(em, sql, params, options)).rows;
}

/** The most values a Bind message carries (its count is 16 bits). */
export const MAX_BIND_PARAMETERS = 65_535;

/**
 * `?` → `$1`, `$2`, … in order, except inside '…' literals (also E'…'), "…" identifiers and
 * comments; the count must match the values.
 */
export function numberedPlaceholders(sql: string, count: number): string {
  // Copies the text between placeholders as slices, looking at character codes: a batch's
  // statement is kilobytes long (a `values` list of hundreds of keys), which building the result
  // character by character made 1.5 % of analytics' CPU in a billing run.
  let out = '';
  let n = 0;
  let copied = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql.charCodeAt(i);
    if (c === QUOTE || c === DOUBLE_QUOTE) {
      i = closingQuote(sql, i, sql[i]!);
    } else if (c === DASH && sql.charCodeAt(i + 1) === DASH) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
    } else if (c === SLASH && sql.charCodeAt(i + 1) === STAR) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (c === QUESTION_MARK) {
      out += `${sql.slice(copied, i)}$${++n}`;
      copied = ++i;
    } else {
      i++;
    }
  }
  if (n !== count) throw new Error(`the statement has ${n} placeholders for ${count} values`);
  return out + sql.slice(copied);
}

const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const DASH = 45;
const SLASH = 47;
const STAR = 42;
const QUESTION_MARK = 63;

/** The index after the quote closing the one at `start` (a doubled quote is part of the text; E'…' knows \'). */
function closingQuote(sql: string, start: number, quote: string): number {
  const escapes = quote === "'" && (sql[start - 1] === 'E' || sql[start - 1] === 'e');
  let i = start + 1;
  while (i < sql.length) {
    if (escapes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

function boundValue(value: unknown): unknown {
  // Most values are strings (ids, codes): taken as they are before any of the object tests below.
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) throw new Error('a JS array is not a bound value: pass pgArray(values) for an array');
  // A plain object is a JSON document; any other object (a Decimal) is its text, as em.execute writes them.
  if (Utils.isPlainObject(value)) return JSON.stringify(value);
  return String(value);
}
