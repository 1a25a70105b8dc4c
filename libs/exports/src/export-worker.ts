import { type ServiceDeps, startPollingWorker, type WakeableWorker } from '@billing/runtime';
import type { ExportJobStore } from './export-job-store.js';
import type { ExportSource } from './export-source.js';
import { runExportJobs } from './run-export-jobs.js';

/** The export worker every replica of an exporting service runs: runExportJobs, pass after pass. */
export function startExportWorker(
  deps: ServiceDeps,
  store: ExportJobStore,
  sources: ReadonlyMap<string, ExportSource>,
  intervalMs: number,
): WakeableWorker {
  return startPollingWorker('exports', intervalMs, deps.logger, () => runExportJobs({ ...deps, store, sources }));
}
