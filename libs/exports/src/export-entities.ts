import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An export job (gaps.md §9), in the schema of the service that owns the exported list. `params`
 * are the kind's request message as the gateway sent it; `context` the caller's request context
 * (organization, its time zone and test-clock time), for what the job asks other services.
 */
export const ExportJobEntity = defineEntity({
  name: 'ExportJob',
  tableName: 'export_job',
  indexes: [
    { name: 'export_job_queue_idx', properties: ['status', 'created_at'] },
    { name: 'export_job_expiry_idx', properties: ['on_test_clock', 'expires_at'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    kind: p.string().length(32),
    params: p.blob(),
    context: p.json<Record<string, string>>(),
    /** pending, running, done, failed */
    status: p.string().length(16),
    progress: p.integer(),
    rows: p.bigint('number'),
    pages: p.integer(),
    /** Runs begun; a run interrupted by its worker's end is begun again up to MAX_RUNS (run-export-jobs.ts). */
    attempts: p.integer(),
    failure_reason: p.text(),
    /** The organization's time when the job was asked for, and 7 days later. */
    created_at: p.datetime(),
    expires_at: p.datetime(),
    /** The organization runs on a test clock: its jobs expire when read after expires_at (its time). */
    on_test_clock: p.boolean(),
    started_at: p.datetime().nullable(),
    finished_at: p.datetime().nullable(),
  },
});

export type ExportJobRow = InferEntity<typeof ExportJobEntity>;

/** One stored page of a job's rows: the kind's page message (e.g. ListInvoicesResponse). */
export const ExportPageEntity = defineEntity({
  name: 'ExportPage',
  tableName: 'export_page',
  properties: {
    job_id: p.uuid().primary(),
    index: p.integer().primary(),
    rows: p.integer(),
    data: p.blob(),
  },
});

/** The tables a service adds to its entities to export (migrations are generated from them). */
export const exportEntities = [ExportJobEntity, ExportPageEntity];
