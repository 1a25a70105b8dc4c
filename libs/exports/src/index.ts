export { CSV_PAGE_BYTES, csvPagesOfCopy, gzippedPages } from './csv-copy.js';
export { exportWorkerIntervalMs } from './export-config.js';
export { ExportJobEntity, type ExportJobRow, ExportPageEntity, exportEntities } from './export-entities.js';
export {
  type ClaimedJob,
  EXPORT_LIFETIME_MS,
  type ExportJob,
  ExportJobStore,
  type ExportStatus,
} from './export-job-store.js';
export { exportService } from './export-service.js';
export {
  type ExportPage,
  type ExportRequest,
  type ExportRun,
  type ExportSnapshot,
  type ExportSource,
  inBatches,
  pagesOf,
  type ReadRow,
  type SnapshotQuery,
} from './export-source.js';
export { startExportWorker } from './export-worker.js';
export { type ServiceExports, serviceExports } from './exports.js';
export {
  type ExportWorkerDeps,
  FAILED_REASON,
  INTERRUPTED_REASON,
  MAX_RUNS,
  numberedPlaceholders,
  PURGE_INTERVAL_MS,
  progressOf,
  runExportJobs,
  withLiterals,
} from './run-export-jobs.js';
