import type { Clock } from '@billing/clock';
import type { Logger } from '@billing/observability';
import { type BackgroundWorker, type CommittedEventsListener, startPollingWorker } from '@billing/runtime';
import type { MikroORM } from '@mikro-orm/postgresql';
import { processAllDue } from '../use-cases/subscriptions/process-due.js';

export interface RenewalSchedulerOptions {
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
  /** Pause between passes when nothing was due. */
  intervalMs: number;
  batchSize: number;
  /** Told each committed batch's events (per organization). */
  committedEvents?: CommittedEventsListener | undefined;
}

/**
 * Runs due work of real-clock organizations (renewals, scheduled changes and cancellations,
 * expiries) pass after pass. Any number of replicas may run: they claim disjoint rows with
 * FOR UPDATE SKIP LOCKED. Test-clock organizations are processed only by ProcessDue.
 */
export function startRenewalScheduler(
  options: RenewalSchedulerOptions,
): BackgroundWorker & { runOnce(): Promise<number> } {
  const runOnce = () =>
    processAllDue(
      options.orm,
      { now: options.clock.now(), testClockOrganization: null, batchSize: options.batchSize },
      { logger: options.logger, committedEvents: options.committedEvents },
    );
  return { ...startPollingWorker('renewal-scheduler', options.intervalMs, options.logger, runOnce), runOnce };
}
