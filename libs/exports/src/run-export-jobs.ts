import type { Clock } from '@billing/clock';
import type { Logger } from '@billing/observability';
import { IsolationLevel } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import Cursor from 'pg-cursor';
import type { ClaimedJob, ExportJobStore } from './export-job-store.js';
import type { ExportSnapshot, ExportSource, SnapshotQuery } from './export-source.js';

/** Runs of one job, interrupted ones included; a job whose worker ended this often fails. */
export const MAX_RUNS = 3;

export const INTERRUPTED_REASON = `The export was interrupted ${MAX_RUNS} times (its worker stopped before it ended).`;
export const FAILED_REASON = 'The export failed on an internal error; start it again.';

/**
 * How often a worker's passes delete expired jobs (by the service's clock). Every pass (two a
 * second) did: a planned delete each time in every exporting service (about 400 a 10,000-subscription
 * billing run, 0.45 s of Postgres' planning there), for jobs that expire seven days after they
 * were asked for.
 */
export const PURGE_INTERVAL_MS = 5 * 60 * 1000;

export interface ExportWorkerDeps {
  orm: MikroORM;
  pool: pg.Pool;
  clock: Clock;
  logger: Logger;
  store: ExportJobStore;
  sources: ReadonlyMap<string, ExportSource>;
}

/**
 * A session-level advisory lock per job, held by the worker that runs it for the whole run, on
 * a connection of its own. The lock ends with that connection, so when a worker's process dies
 * its running jobs are free again: a worker that gets the lock of a `running` job knows nobody
 * runs it, and runs it again from the start (MAX_RUNS). The key includes the schema: replicas
 * of one service share it, other services' jobs (in the same database) do not.
 */
const LOCK = `select pg_try_advisory_lock(hashtext('export_job'), hashtext(current_schema() || $1)) as locked`;
const UNLOCK = `select pg_advisory_unlock(hashtext('export_job'), hashtext(current_schema() || $1))`;

/**
 * One pass of the export worker: deletes expired jobs (in the store's first pass, then at most
 * every PURGE_INTERVAL_MS), then runs every job waiting for a worker
 * (queued, or left running by a worker that ended) that no other worker holds. Returns how many
 * it ran.
 */
export async function runExportJobs(deps: ExportWorkerDeps): Promise<number> {
  await deps.store.purgeExpiredEvery(PURGE_INTERVAL_MS, deps.clock.now());
  let ran = 0;
  for (const uuid of await deps.store.candidates(50)) {
    if (await runIfFree(deps, uuid)) ran += 1;
  }
  return ran;
}

async function runIfFree(deps: ExportWorkerDeps, uuid: string): Promise<boolean> {
  const lockConnection = await deps.pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await lockConnection.query<{ locked: boolean }>(LOCK, [uuid]);
    if (!rows[0]?.locked) return false;
    try {
      const job = await deps.store.begin(uuid, deps.clock.now());
      if (!job) return false;
      if (job.attempts > MAX_RUNS) {
        await deps.store.fail(job, INTERRUPTED_REASON, deps.clock.now());
        deps.logger.warn({ job: uuid, kind: job.kind }, 'export interrupted too often; failed');
        return true;
      }
      await runJob(deps, job);
      return true;
    } finally {
      await lockConnection.query(UNLOCK, [uuid]);
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection whose query failed may be gone: the pool must not hand it out again.
    lockConnection.release(broken);
  }
}

async function runJob(deps: ExportWorkerDeps, job: ClaimedJob): Promise<void> {
  const source = deps.sources.get(job.kind);
  if (!source) {
    await deps.store.fail(job, `This service does not export "${job.kind}".`, deps.clock.now());
    return;
  }
  try {
    await inSnapshot(deps, async (snapshot) => {
      const run = await source.open(snapshot, {
        organizationId: job.organizationId,
        params: job.params,
        context: job.context,
      });
      // One page is written (on a pool connection) while the next is read and made: the writes
      // overlap the reading instead of pausing it.
      let index = 0;
      let writing: Promise<void> = Promise.resolve();
      for await (const page of run.pages) {
        await writing;
        const stored = deps.store.addPage(job, index, page, progressOf(page.read, run.total));
        writing = stored.then((current) => {
          if (!current) throw new Superseded();
        });
        // Awaited before the next page or at the end; a failure meanwhile is not "unhandled".
        writing.catch(() => {});
        index += 1;
      }
      await writing;
    });
  } catch (error) {
    if (error instanceof Superseded) {
      deps.logger.warn({ job: job.uuid, kind: job.kind }, 'export run superseded by a later run; stopped');
      return;
    }
    deps.logger.error({ err: error, job: job.uuid, kind: job.kind }, 'export failed');
    await deps.store.fail(job, FAILED_REASON, deps.clock.now());
    return;
  }
  await deps.store.finish(job, deps.clock.now());
}

/**
 * Runs `work` in one snapshot of the schema on two connections (ExportSnapshot): a pool
 * connection's transaction exports its snapshot and holds the cursors; the ORM's transaction
 * imports it before its first query.
 */
async function inSnapshot<T>(
  deps: Pick<ExportWorkerDeps, 'orm' | 'pool'>,
  work: (snapshot: ExportSnapshot) => Promise<T>,
): Promise<T> {
  const client = await deps.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin isolation level repeatable read read only');
    // An export's one big query is cheap per row: JIT-compiling it costs seconds on a loaded
    // machine (measured: 2.7 s of 2.7 s for 100,000 invoices) and saves nothing.
    await client.query('set local jit = off');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const result = await deps.orm.em.fork({ useContext: false }).transactional(
      async (em) => {
        await em.execute(`set transaction snapshot '${rows[0]!.id}'`);
        return work({
          stream: (query, chunkSize) => cursorRows(client, query, chunkSize),
          copyCsv: (query) => copyCsv(client, query),
          em,
        });
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
    await client.query('commit');
    return result;
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release(broken);
  }
}

async function* cursorRows(
  client: pg.PoolClient,
  query: SnapshotQuery,
  chunkSize = 1000,
): AsyncIterable<Record<string, unknown>> {
  const cursor = client.query(new Cursor<Record<string, unknown>>(numberedPlaceholders(query.sql), [...query.params]));
  try {
    for (let rows = await cursor.read(chunkSize); rows.length > 0; rows = await cursor.read(chunkSize)) yield* rows;
  } finally {
    await cursor.close();
  }
}

async function* copyCsv(client: pg.PoolClient, query: SnapshotQuery): AsyncIterable<Uint8Array> {
  const sql = `copy (${withLiterals(query)}) to stdout with (format csv)`;
  yield* client.query(copyTo(sql));
}

/**
 * A query with its `?` placeholders replaced by its values as SQL literals (quoted identifiers and
 * literals left as they are), for COPY, which takes no parameters: text is quoted by pg's
 * escapeLiteral, instants as timestamptz literals; any other kind of value is refused.
 */
export function withLiterals(query: SnapshotQuery): string {
  let index = 0;
  return query.sql.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'|\?/g, (match) =>
    match === '?' ? literalOf(query.params[index++]) : match,
  );
}

function literalOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime()))
    return `${pg.escapeLiteral(value.toISOString())}::timestamptz`;
  throw new Error(`no SQL literal for ${typeof value} ${String(value)}`);
}

/**
 * The QueryBuilder's `?` placeholders as PostgreSQL's `$1, $2, ...`; quoted identifiers and
 * literals are left as they are.
 */
export function numberedPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'|\?/g, (match) => (match === '?' ? `$${++index}` : match));
}

/** This run lost its lock (its lock connection ended) and another worker began the job again. */
class Superseded extends Error {}

/** Percent of the rows written, below 100 until the job is done (done sets 100). */
export function progressOf(written: number, total: number): number {
  if (total <= 0) return 99;
  return Math.min(99, Math.floor((written * 100) / total));
}
