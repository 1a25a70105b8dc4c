/**
 * Vocabulary of the export tests (gaps.md §9, docs/api.md "Exports"): starting a job, waiting for
 * it, and the CSV a download must be, written out independently of the gateway's CSV writer.
 */
import { waitFor } from '@billing/testing';
import { expect } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import { expectStatus, type Json, UUID_PATTERN } from './helpers.js';

export const EXPORTS = '/api/v1/exports/';
export const jobPath = (uuid: string): string => `${EXPORTS}${uuid}/`;
export const downloadPath = (uuid: string): string => `${EXPORTS}${uuid}/download/`;

/** POSTs an export, checks the 202 `{export_id, job_uuid}` (or `{action_id, job_uuid}`), returns the job's uuid. */
export async function startExport(
  api: ApiClient,
  path: string,
  body: Json = {},
  idField: 'export_id' | 'action_id' = 'export_id',
): Promise<string> {
  const response = await api.post(path, body);
  expectStatus(response, 202);
  const uuid = response.body.job_uuid as string;
  expect(uuid).toMatch(UUID_PATTERN);
  expect(response.body).toEqual({ [idField]: uuid, job_uuid: uuid });
  expect(response.headers.get('location')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${jobPath(uuid)}$`));
  return uuid;
}

/** The job once it has ended (done or failed). */
export async function finishedJob(api: ApiClient, uuid: string): Promise<Json> {
  return waitFor(
    async () => {
      const response = await api.get(jobPath(uuid));
      expectStatus(response, 200);
      return ['done', 'failed'].includes(response.body.status) ? (response.body as Json) : undefined;
    },
    { timeoutMs: 20_000, description: `export ${uuid} to end` },
  );
}

/** The downloaded CSV, checked to be text/csv in UTF-8. */
export async function downloadCsv(api: ApiClient, uuid: string): Promise<string> {
  const response = await api.get(downloadPath(uuid));
  expectStatus(response, 200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  return response.text;
}

/** One CSV record as RFC 4180 writes it: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvRecord(cells: readonly (string | number | boolean | null)[]): string {
  return cells
    .map((cell) => {
      const text = cell === null ? '' : String(cell);
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}

/** A whole file: the header and the records, each ended by CRLF. */
export const csvFileOf = (
  header: readonly string[],
  records: readonly (readonly (string | number | boolean | null)[])[],
) => [header, ...records].map((cells) => `${csvRecord(cells)}\r\n`).join('');

/**
 * The columns of a list item as gaps.md §9 describes them, read off a JSON item whose nested
 * objects are all present: nested objects as dotted columns, arrays and free-form objects
 * (`custom_fields`) as one column.
 */
export function columnsOf(item: Json, freeForm: readonly string[] = ['custom_fields'], prefix = ''): string[] {
  return Object.entries(item).flatMap(([name, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && !freeForm.includes(name)
      ? columnsOf(value as Json, freeForm, `${prefix}${name}.`)
      : [`${prefix}${name}`],
  );
}

/** A list item's cells under `columns`: JSON numbers and booleans as written, null as empty, arrays and objects as JSON. */
export function cellsOf(item: Json, columns: readonly string[]): (string | number | boolean | null)[] {
  return columns.map((column) => {
    let value: unknown = item;
    for (const key of column.split('.')) value = value == null ? null : (value as Json)[key];
    if (value === undefined || value === null) return null;
    return typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  });
}
