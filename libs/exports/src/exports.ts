import type { GrpcService } from '@billing/grpc';
import type { BackgroundWorker, ServiceDeps, WakeableWorker } from '@billing/runtime';
import { exportWorkerIntervalMs } from './export-config.js';
import { ExportJobStore } from './export-job-store.js';
import { exportService } from './export-service.js';
import type { ExportSource } from './export-source.js';
import { startExportWorker } from './export-worker.js';

/**
 * What a service wires to export its lists: its ExportService and its worker, over one store on
 * the service's pool. A service names its sources once (service.ts) and adds `exportEntities`.
 */
export interface ServiceExports {
  grpcService(deps: ServiceDeps): GrpcService;
  /** Every `intervalMs`, by default EXPORT_WORKER_INTERVAL_MS (500). */
  worker(deps: ServiceDeps, intervalMs?: number): BackgroundWorker;
}

export function serviceExports(service: string, sources: readonly ExportSource[]): ServiceExports {
  const byKind = new Map(sources.map((source) => [source.kind, source]));
  // A job asked of this replica wakes its worker at once rather than at its next pass (other
  // replicas' workers find it at theirs).
  const workers = new Set<WakeableWorker>();
  const wake = () => {
    for (const worker of workers) worker.wake();
  };
  return {
    grpcService: (deps) => exportService(deps, new ExportJobStore(deps.pool), byKind, wake),
    worker: (deps, intervalMs = exportWorkerIntervalMs(service)) => {
      const worker = startExportWorker(deps, new ExportJobStore(deps.pool), byKind, intervalMs);
      workers.add(worker);
      return {
        wake: () => worker.wake(),
        stop: async () => {
          workers.delete(worker);
          await worker.stop();
        },
      };
    },
  };
}
