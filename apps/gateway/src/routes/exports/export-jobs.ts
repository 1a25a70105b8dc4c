import type { exportsV1 } from '@billing/proto';
import type { Request } from 'express';
import { EXPORTING_SERVICES, type ExportingService, type ServiceClients } from '../../clients/service-clients.js';
import { absoluteRequestUrl, HttpResponse, notFound } from '../../http/index.js';
import { tagged } from '../shared/representation.js';

export const EXPORTS_PATH = '/api/v1/exports/';
export const EXPORT_JOB_PATH = `${EXPORTS_PATH}{job_uuid}/`;
export const EXPORT_DOWNLOAD_PATH = `${EXPORT_JOB_PATH}download/`;

const jobUrl = (req: Request, uuid: string, suffix = '') =>
  new URL(`${EXPORTS_PATH}${uuid}/${suffix}`, absoluteRequestUrl(req).origin).toString();

/** NOT_FOUND, or UNIMPLEMENTED from a service that exports nothing yet (it has no jobs). */
const hasNoSuchJob = (error: unknown) => [5, 12].includes((error as { code?: number }).code ?? -1);

/**
 * The job of that uuid and the service that runs it. The gateway asks every exporting service at
 * once (each knows only its own jobs; another organization's is NOT_FOUND everywhere): one round
 * trip, no routing table to keep (docs/architecture.md "Exports").
 */
export async function findExportJob(
  clients: Pick<ServiceClients, 'exports'>,
  uuid: string,
): Promise<{ owner: ExportingService; job: exportsV1.ExportJob }> {
  const answers = await Promise.allSettled(
    EXPORTING_SERVICES.map(async (owner) => ({
      owner,
      job: (await clients.exports[owner].call('getExportJob', { uuid })).job!,
    })),
  );
  const found = answers.find((answer) => answer.status === 'fulfilled');
  if (found) return found.value;
  const failure = answers.find((answer) => answer.status === 'rejected' && !hasNoSuchJob(answer.reason));
  if (failure) throw (failure as PromiseRejectedResult).reason;
  throw notFound();
}

/** GET /api/v1/exports/{job_uuid}/ (gaps.md §9), with when it expires and why a failed one failed (ours). */
export function presentExportJob(req: Request, job: exportsV1.ExportJob) {
  return tagged('export_job', {
    job_uuid: job.uuid,
    status: job.status as 'pending' | 'running' | 'done' | 'failed',
    progress: job.progress,
    rows: Number(job.rows),
    download_url: job.status === 'done' ? jobUrl(req, job.uuid, 'download/') : null,
    failure_reason: job.status === 'failed' ? job.failure_reason : null,
    expires_date: job.expires_date?.toISOString() ?? null,
  });
}

/**
 * 202 for a started export (gaps.md §1): `{export_id, job_uuid}`, or `{action_id, job_uuid}` for
 * subscriptions; the id is the job's uuid (an export is one job). Location names the job.
 */
export function exportStarted(req: Request, job: exportsV1.ExportJob, idField: 'export_id' | 'action_id') {
  return new HttpResponse(
    202,
    { [idField]: job.uuid, job_uuid: job.uuid },
    { headers: { Location: jobUrl(req, job.uuid) } },
  );
}
