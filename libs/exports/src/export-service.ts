import { AppError } from '@billing/errors';
import { type GrpcService, unaryService } from '@billing/grpc';
import { exportsV1 } from '@billing/proto';
import { orgNow, requireOrganization, type ServiceDeps } from '@billing/runtime';
import type { ExportJob, ExportJobStore } from './export-job-store.js';
import type { ExportSource } from './export-source.js';

function jobMessage(job: ExportJob): exportsV1.ExportJob {
  return {
    uuid: job.uuid,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    rows: String(job.rows),
    pages: job.pages,
    failure_reason: job.failureReason,
    created_date: job.createdAt,
    expires_date: job.expiresAt,
  };
}

/**
 * billing.exports.v1.ExportService of one service: its jobs, in its schema, of the kinds its
 * `sources` export. Jobs are the calling organization's only; an expired one is NOT_FOUND.
 */
export function exportService(
  deps: Pick<ServiceDeps, 'clock'>,
  store: ExportJobStore,
  sources: ReadonlyMap<string, ExportSource>,
  /** Called once a job is stored: the worker of this replica starts it without waiting its interval. */
  jobWaiting: () => void = () => {},
): GrpcService {
  const findJob = async (uuid: string, context: Parameters<typeof requireOrganization>[0]) => {
    const organizationId = requireOrganization(context);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) throw AppError.notFound();
    const job = await store.find(organizationId, uuid, orgNow(deps.clock, context));
    if (!job) throw AppError.notFound();
    return job;
  };
  return unaryService(exportsV1.ExportServiceService, {
    startExport: async (request, context) => {
      const organizationId = requireOrganization(context);
      const source = sources.get(request.kind);
      if (!source) throw AppError.invalidField('kind', `This service does not export "${request.kind}".`);
      source.check?.(request.params);
      const job = await store.create({
        kind: request.kind,
        params: request.params,
        context,
        organizationId,
        now: orgNow(deps.clock, context),
      });
      jobWaiting();
      return { job: jobMessage(job) };
    },
    getExportJob: async (request, context) => ({ job: jobMessage(await findJob(request.uuid, context)) }),
    readExportPage: async (request, context) => {
      const job = await findJob(request.uuid, context);
      if (job.status !== 'done') throw AppError.refused('EXPORT_NOT_DONE', `The export is ${job.status}.`);
      const page = await store.page(job.uuid, request.index);
      if (!page) throw AppError.notFound();
      return { data: page.data, rows: page.rows };
    },
  });
}
