export { type BootReport, bootCheck } from './boot-check.js';
export { CollectedChangeRecords, type CollectedChangeRecordsOptions } from './collected-change-records.js';
export { type ForwardCommittedEventsOptions, forwardCommittedEvents } from './forward-committed-events.js';
export { onePerService } from './one-per-service.js';
export { startPollingWorker, type WakeableWorker } from './polling-worker.js';
export {
  type ChangeScope,
  type CommittedEventsListener,
  changeScope,
  orgNow,
  requireOrganization,
  runChange,
} from './run-change.js';
export { runFromEnvironment, runStandalone } from './run-standalone.js';
export type { BackgroundWorker, ServiceDeps, ServiceModule } from './service-module.js';
export { type RunningService, type StartServiceOptions, startService } from './start-service.js';
