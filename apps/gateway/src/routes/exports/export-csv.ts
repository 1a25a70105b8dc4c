import { type Duplex, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { z } from 'zod';

/**
 * The CSV columns of a list representation (gaps.md §9): each field of the list item's schema in
 * order; a nested object (nullable or not) becomes its fields as dotted columns (`account.code`);
 * arrays and free-form objects (`vat_breakdown`, `custom_fields`) stay one column.
 */
export function csvColumns(schema: z.ZodObject, prefix = ''): string[] {
  return Object.entries(schema.shape).flatMap(([name, field]) => {
    const inner = unwrapped(field as z.ZodType);
    return inner instanceof z.ZodObject ? csvColumns(inner, `${prefix}${name}.`) : [`${prefix}${name}`];
  });
}

function unwrapped(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodNullable || field instanceof z.ZodOptional) return unwrapped(field.unwrap() as z.ZodType);
  return field;
}

/**
 * One item's cells under `columns`: text as it is, numbers and booleans as JSON writes them, null
 * (and a field of a null object) as an empty cell, arrays and objects as their JSON.
 */
export function csvCells(columns: readonly string[], item: object): string[] {
  return columns.map((column) => {
    let value: unknown = item;
    for (const key of column.split('.')) {
      value = value === null || value === undefined ? undefined : (value as Record<string, unknown>)[key];
    }
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return JSON.stringify(value);
  });
}

/**
 * The CSV file (RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line
 * break) of a header row and the items of each page as it comes, written by csv-stringify.
 */
export function csvFile(columns: readonly string[], pages: AsyncIterable<readonly object[]>): Duplex {
  const records = Readable.from(
    (async function* () {
      yield [...columns];
      for await (const items of pages) for (const item of items) yield csvCells(columns, item);
    })(),
  );
  // compose, not pipe: a failure reading the pages ends the file with that error.
  return records.compose(stringify(CSV_OPTIONS));
}

// A lone CR or LF in a field is a line break to readers too: quote those as well.
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/**
 * The CSV file of a header row (written by csv-stringify, as csvFile writes it) and pages that
 * are CSV records already (the owning service wrote them), sent on as they come.
 */
export function csvFileOfRecords(columns: readonly string[], pages: AsyncIterable<Uint8Array>): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(stringifySync([[...columns]], CSV_OPTIONS));
      for await (const records of pages) yield Buffer.from(records.buffer, records.byteOffset, records.byteLength);
    })(),
    { objectMode: false },
  );
}
