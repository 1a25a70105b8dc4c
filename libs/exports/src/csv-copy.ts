import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { ExportPage } from './export-source.js';

const gzipAsync = promisify(gzip);

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Bytes of CSV records a stored page holds at most before it is cut (a record is never split). */
export const CSV_PAGE_BYTES = 1 << 20;

/**
 * Stored pages of CSV records, gzip-compressed (level 1: a CSV of repeated columns shrinks several
 * times, and writing and reading the pages' bytes through PostgreSQL's bytea is what an export's
 * storage costs), one page compressed (on libuv's thread pool) while the next is read. The gateway
 * gunzips each page as it sends the file.
 */
export async function* gzippedPages(pages: AsyncIterable<ExportPage>): AsyncIterable<ExportPage> {
  let pending: Promise<ExportPage> | null = null;
  for await (const page of pages) {
    const compressed = gzipAsync(page.data, { level: 1 }).then((data) => ({ ...page, data }));
    compressed.catch(() => {});
    if (pending) yield await pending;
    pending = compressed;
  }
  if (pending) yield await pending;
}

/**
 * The CSV records PostgreSQL's `COPY ... TO STDOUT WITH (FORMAT csv)` writes, as stored pages of
 * RFC 4180 records: PostgreSQL's CSV writer quotes fields holding the delimiter, a quote, CR or
 * LF and doubles quotes, as csv-stringify does, but ends records with LF; each record end (an LF
 * outside quotes) becomes CRLF, an LF inside a quoted field stays as it is. Pages are cut after a
 * record once they reach `pageBytes`; `read` counts the records so far (the progress).
 */
export async function* csvPagesOfCopy(
  chunks: AsyncIterable<Uint8Array>,
  pageBytes = CSV_PAGE_BYTES,
): AsyncIterable<ExportPage> {
  let quoted = false;
  let parts: Uint8Array[] = [];
  let size = 0;
  let rows = 0;
  let read = 0;
  /** The bytes of `parts` up to the last complete record, and what follows it. */
  let recordEnd = 0;
  for await (const input of chunks) {
    const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    let start = 0;
    let position = 0;
    // Native searches (memchr) for the next quote and line feed instead of a loop over every byte:
    // most records hold no quote at all.
    let nextQuote = chunk.indexOf(QUOTE, 0);
    while (position < chunk.length) {
      if (quoted) {
        if (nextQuote === -1) break;
        quoted = false;
        position = nextQuote + 1;
        nextQuote = chunk.indexOf(QUOTE, position);
        continue;
      }
      const lineEnd = chunk.indexOf(LF, position);
      if (nextQuote !== -1 && (lineEnd === -1 || nextQuote < lineEnd)) {
        quoted = true;
        position = nextQuote + 1;
        nextQuote = chunk.indexOf(QUOTE, position);
        continue;
      }
      if (lineEnd === -1) break;
      parts.push(chunk.subarray(start, lineEnd), CRLF);
      size += lineEnd - start + 2;
      start = lineEnd + 1;
      position = start;
      rows += 1;
      read += 1;
      recordEnd = size;
      if (size >= pageBytes) {
        yield { data: joined(parts, size), rows, read };
        parts = [];
        size = 0;
        rows = 0;
        recordEnd = 0;
      }
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  }
  if (size !== recordEnd || quoted) throw new Error('COPY ended inside a record');
  if (rows > 0) yield { data: joined(parts, size), rows, read };
}

const CRLF = Uint8Array.of(CR, LF);

function joined(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
