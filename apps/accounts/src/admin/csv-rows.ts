import { readFileSync } from 'node:fs';
import { AppError } from '@billing/errors';
import { parse } from 'csv-parse/sync';
import type { ImportRow } from '../domain/import-rows.js';

/**
 * The rows of a CSV file (RFC 4180, UTF-8 with or without a byte order mark, a header row naming
 * the columns), each as column → text. Refused as a whole, naming `file`, when it cannot be read,
 * is not CSV, or its header lacks a required column or has one not in `columns` (a typo would
 * otherwise import nothing into that field).
 */
export function readCsvRows(path: string, columns: readonly string[], requiredColumns: readonly string[]): ImportRow[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw AppError.invalidField('file', `Cannot read ${path}: ${(error as Error).message}`);
  }
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true });
  } catch (error) {
    throw AppError.invalidField('file', `${path} is not valid CSV: ${(error as Error).message}`);
  }
  const [header = [], ...rows] = records;
  const names = header.map((name) => name.trim());
  const unknown = names.filter((name) => !columns.includes(name));
  if (unknown.length > 0) {
    throw AppError.invalidField(
      'file',
      `Unknown column ${unknown.map((name) => `"${name}"`).join(', ')}; the columns are ${columns.join(', ')}.`,
    );
  }
  const missing = requiredColumns.filter((name) => !names.includes(name));
  if (missing.length > 0) throw AppError.invalidField('file', `The header lacks the column ${missing.join(', ')}.`);
  return rows.map((row) => Object.fromEntries(names.map((name, index) => [name, row[index] ?? ''])));
}
