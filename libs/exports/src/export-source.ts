import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A stored page of rows: the kind's page message, encoded. */
export interface ExportPage {
  data: Uint8Array;
  rows: number;
}

/** What a source reads for one job. */
export interface ExportRequest {
  organizationId: string;
  /** The kind's request message as StartExport received it. */
  params: Uint8Array;
  /** The context of the call that asked for the job (organization, time zone, test-clock time). */
  context: RequestContext;
}

/** The rows of one run: how many there are, and the pages that hold them, read from one snapshot. */
export interface ExportRun {
  total: number;
  pages: AsyncIterable<ExportPage>;
}

/**
 * One exportable list of a service (its "kind"). `open` runs inside a REPEATABLE READ, read-only
 * transaction (`em`), so the count and the rows agree; it reads the rows with a cursor
 * (`em.stream`), never the whole set at once.
 */
export interface ExportSource {
  kind: string;
  /** Refuses bad params when the job is asked for (AppError INVALID_ARGUMENT naming the field). */
  check?(params: Uint8Array): void;
  open(em: EntityManager, request: ExportRequest): Promise<ExportRun>;
}

/** Groups a stream of items into arrays of `size` (the last may be shorter), for page messages. */
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
