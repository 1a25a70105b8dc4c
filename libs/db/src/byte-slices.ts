import { pgArray } from './pg-array.js';

/**
 * Many byte strings (a batch's payloads) as three bound values: one run of bytes and, per string,
 * its 1-based start and its length as int arrays, so a statement takes row i's bytes with
 * `substring(?::bytea from r.start for r.length)` beside the `unnest` of its other columns. The
 * bytes stay binary (no hex in the text) and the statement is the same for one row or a thousand.
 * One run stays below Postgres' 1 GB for a value.
 */
export function byteSlices(values: readonly Uint8Array[]): { bytes: Buffer; starts: string; lengths: string } {
  const starts: number[] = [];
  let next = 1;
  for (const value of values) {
    starts.push(next);
    next += value.length;
  }
  return {
    bytes: Buffer.concat(values),
    starts: pgArray(starts),
    lengths: pgArray(values.map((value) => value.length)),
  };
}
