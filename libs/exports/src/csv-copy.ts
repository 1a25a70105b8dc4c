import type { ExportPage } from './export-source.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Bytes a stored page of CSV records holds at most before it is cut (a record is never split). */
export const CSV_PAGE_BYTES = 1 << 20;

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
  for await (const chunk of chunks) {
    let start = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === LF && !quoted) {
        parts.push(chunk.subarray(start, index), CRLF);
        size += index - start + 2;
        start = index + 1;
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
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  }
  if (size !== recordEnd) throw new Error('COPY ended inside a record');
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
