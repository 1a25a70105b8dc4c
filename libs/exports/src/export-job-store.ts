import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@billing/observability';
import type pg from 'pg';

/** How long a job and its file are kept, on the organization's clock (gaps.md §9). */
export const EXPORT_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type ExportStatus = 'pending' | 'running' | 'done' | 'failed';

/** A job as its readers see it. */
export interface ExportJob {
  uuid: string;
  kind: string;
  status: ExportStatus;
  progress: number;
  rows: number;
  pages: number;
  failureReason: string;
  createdAt: Date;
  expiresAt: Date;
}

/** One run of a job: its uuid and the attempt that run is. */
export type RunOf = Pick<ClaimedJob, 'uuid' | 'attempts'>;

/** A job as its worker sees it. */
export interface ClaimedJob extends ExportJob {
  organizationId: string;
  params: Uint8Array;
  context: RequestContext;
  attempts: number;
}

interface JobRow {
  id: string;
  organization_id: string;
  kind: string;
  params: Buffer;
  context: RequestContext;
  status: ExportStatus;
  progress: number;
  rows: string;
  pages: number;
  attempts: number;
  failure_reason: string;
  created_at: Date;
  expires_at: Date;
}

const jobOf = (row: JobRow): ClaimedJob => ({
  uuid: row.id,
  kind: row.kind,
  status: row.status,
  progress: row.progress,
  rows: Number(row.rows),
  pages: row.pages,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  organizationId: row.organization_id,
  params: row.params,
  context: row.context,
  attempts: row.attempts,
});

/** The context a job keeps: what identifies the caller's organization and its time, nothing else. */
function keptContext(context: RequestContext): RequestContext {
  const kept: RequestContext = { requestId: context.requestId };
  for (const key of [
    'organizationId',
    'apiUserId',
    'clientSystem',
    'organizationTimeZone',
    'organizationTime',
  ] as const) {
    if (context[key] !== undefined) kept[key] = context[key];
  }
  return kept;
}

/**
 * The jobs and their pages in the owning service's schema, through plain SQL on its pool (the
 * worker writes pages beside the read-only snapshot transaction it reads the rows in).
 */
export class ExportJobStore {
  /** When purgeExpiredEvery last purged (the caller's clock, ms). */
  private purgedAt: number | undefined;

  constructor(private readonly pool: pg.Pool) {}

  async create(input: {
    kind: string;
    params: Uint8Array;
    context: RequestContext;
    organizationId: string;
    now: Date;
  }): Promise<ExportJob> {
    const { rows } = await this.pool.query<JobRow>(
      `insert into export_job (id, organization_id, kind, params, context, status, progress, rows, pages, attempts,
         failure_reason, created_at, expires_at, on_test_clock)
       values ($1, $2, $3, $4, $5, 'pending', 0, 0, 0, 0, '', $6, $7, $8) returning *`,
      [
        randomUUID(),
        input.organizationId,
        input.kind,
        Buffer.from(input.params),
        JSON.stringify(keptContext(input.context)),
        input.now,
        new Date(input.now.getTime() + EXPORT_LIFETIME_MS),
        input.context.organizationTime !== undefined,
      ],
    );
    return jobOf(rows[0]!);
  }

  /**
   * The organization's job, or null when there is none, or when it has expired at `now` (the
   * organization's time): an expired job is deleted with its pages as it is read.
   */
  async find(organizationId: string, uuid: string, now: Date): Promise<ClaimedJob | null> {
    const { rows } = await this.pool.query<JobRow>('select * from export_job where id = $1 and organization_id = $2', [
      uuid,
      organizationId,
    ]);
    const row = rows[0];
    if (!row) return null;
    if (row.expires_at.getTime() <= now.getTime()) {
      await this.remove(`id = $1`, [uuid]);
      return null;
    }
    return jobOf(row);
  }

  async page(jobId: string, index: number): Promise<{ data: Buffer; rows: number } | null> {
    const { rows } = await this.pool.query<{ data: Buffer; rows: number }>(
      'select data, rows from export_page where job_id = $1 and index = $2',
      [jobId, index],
    );
    return rows[0] ?? null;
  }

  /** Jobs that may need a worker: queued, or running (perhaps by a worker that ended), oldest first. */
  async candidates(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `select id from export_job where status in ('pending', 'running') order by created_at, id limit $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Begins a run of a job the caller holds the lock of: a new attempt, and whatever an earlier,
   * interrupted run stored is dropped. Null when the job is no longer waiting for a worker.
   */
  async begin(uuid: string, now: Date): Promise<ClaimedJob | null> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<JobRow>(
        `update export_job set status = 'running', attempts = attempts + 1, progress = 0, rows = 0, pages = 0,
           started_at = $2 where id = $1 and status in ('pending', 'running') returning *`,
        [uuid, now],
      );
      await client.query('delete from export_page where job_id = $1', [uuid]);
      await client.query('commit');
      return rows[0] ? jobOf(rows[0]) : null;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Stores page `index` of run `attempt` and the job's progress in one statement; false (nothing
   * stored) when that run is no longer the job's current one.
   */
  async addPage(
    run: RunOf,
    index: number,
    page: { data: Uint8Array; rows: number },
    progress: number,
  ): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `with current_run as (select id from export_job where id = $1 and attempts = $2 and status = 'running'),
         stored as (insert into export_page (job_id, index, rows, data) select id, $3, $4, $5 from current_run)
       update export_job set rows = rows + $4, pages = $3 + 1, progress = $6 where id in (select id from current_run)`,
      [run.uuid, run.attempts, index, page.rows, Buffer.from(page.data), progress],
    );
    return rowCount === 1;
  }

  /** Marks run `attempt` done; false when that run is no longer the job's current one. */
  async finish(run: RunOf, now: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `update export_job set status = 'done', progress = 100, finished_at = $3
       where id = $1 and attempts = $2 and status = 'running'`,
      [run.uuid, run.attempts, now],
    );
    return rowCount === 1;
  }

  /** Marks run `attempt` failed with its reason and drops its pages. */
  async fail(run: RunOf, reason: string, now: Date): Promise<void> {
    await this.pool.query(
      `with failed as (update export_job set status = 'failed', failure_reason = $3, finished_at = $4
         where id = $1 and attempts = $2 and status = 'running' returning id)
       delete from export_page where job_id in (select id from failed)`,
      [run.uuid, run.attempts, reason, now],
    );
  }

  /** Deletes the jobs of real-clock organizations that expired by `now` (the service's clock). */
  async purgeExpired(now: Date): Promise<number> {
    return this.remove('not on_test_clock and expires_at <= $1', [now]);
  }

  /**
   * purgeExpired, unless this store purged less than `intervalMs` before `now` (then 0); the first
   * call purges, and so does a call whose `now` lies before the last purge (a clock set back). For
   * a worker's passes: a job lives seven days, and its reads check its expiry themselves, so
   * deleting it within minutes of that is soon enough.
   */
  async purgeExpiredEvery(intervalMs: number, now: Date): Promise<number> {
    const since = this.purgedAt === undefined ? undefined : now.getTime() - this.purgedAt;
    if (since !== undefined && since >= 0 && since < intervalMs) return 0;
    const purged = await this.purgeExpired(now);
    this.purgedAt = now.getTime();
    return purged;
  }

  private async remove(condition: string, values: unknown[]): Promise<number> {
    const { rows } = await this.pool.query<{ count: string }>(
      `with gone as (delete from export_job where ${condition} returning id),
         pages as (delete from export_page where job_id in (select id from gone))
       select count(*) as count from gone`,
      values,
    );
    return Number(rows[0]?.count ?? 0);
  }
}
