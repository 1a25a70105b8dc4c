import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A stored page of rows: the kind's page message, encoded. */
export interface ExportPage {
  data: Uint8Array;
  rows: number;
  /** How many of the run's `total` the rows so far were made from (the progress). */
  read: number;
}

/** What a source reads for one job. */
export interface ExportRequest {
  organizationId: string;
  /** The kind's request message as StartExport received it. */
  params: Uint8Array;
  /** The context of the call that asked for the job (organization, time zone, test-clock time). */
  context: RequestContext;
}

/**
 * The rows of one run, read from one snapshot: how many records they are made from (rows, or the
 * invoices rows per account sum up), and the pages that hold them.
 */
export interface ExportRun {
  total: number;
  pages: AsyncIterable<ExportPage>;
}

/** A query as the ORM's QueryBuilder writes it (`qb.toQuery()`: `?` placeholders). */
export interface SnapshotQuery {
  sql: string;
  params: readonly unknown[];
}

/**
 * One snapshot of the service's schema on two connections, each a REPEATABLE READ, read-only
 * transaction (the second imports the first's snapshot), so the count and the rows agree and what
 * the rows need from other tables is read as of the same moment.
 */
export interface ExportSnapshot {
  /**
   * The rows of a query, read through a cursor on the first connection `chunkSize` at a time, as
   * PostgreSQL returns them (column names, int8 as text, json parsed, timestamps as Dates): the
   * ORM's hydration costs more than the whole export, and keeps what it hydrated.
   */
  stream(query: SnapshotQuery, chunkSize?: number): AsyncIterable<Record<string, unknown>>;
  /**
   * The rows of a query as PostgreSQL writes them with `COPY (query) TO STDOUT WITH (FORMAT csv)`
   * on the first connection (no header; csvPagesOfCopy makes stored pages of them): for a kind
   * whose columns the query writes as the file shows them. The query's values are written into
   * its text as literals (COPY takes no parameters).
   */
  copyCsv(query: SnapshotQuery): AsyncIterable<Uint8Array>;
  /** The ORM on the second connection: counts, the queries' SQL, and the rows' related rows while the cursor is open. */
  em: EntityManager;
}

/** One exportable list of a service (its "kind"): its rows read with a cursor, never the whole set at once. */
export interface ExportSource {
  kind: string;
  /** Refuses bad params when the job is asked for (AppError INVALID_ARGUMENT naming the field). */
  check?(params: Uint8Array): void;
  open(snapshot: ExportSnapshot, request: ExportRequest): Promise<ExportRun>;
}

/** A row and how many of the run's `total` were read to make it and the rows before it. */
export interface ReadRow<T> {
  row: T;
  read: number;
}

/** Encodes rows as pages of `size` rows (the last may be shorter) with the kind's page message. */
export async function* pagesOf<T>(
  rows: AsyncIterable<ReadRow<T>>,
  size: number,
  encode: (rows: T[]) => Uint8Array,
): AsyncIterable<ExportPage> {
  let batch: T[] = [];
  let read = 0;
  for await (const item of rows) {
    batch.push(item.row);
    read = item.read;
    if (batch.length >= size) {
      yield { data: encode(batch), rows: batch.length, read };
      batch = [];
    }
  }
  if (batch.length > 0) yield { data: encode(batch), rows: batch.length, read };
}

/** Groups a stream into arrays of `size` (the last may be shorter): rows a page's views are made from together. */
export async function* inBatches<T>(items: AsyncIterable<T>, size: number): AsyncIterable<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
