import type { Clock } from '@billing/clock';
import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { MikroORM } from '@mikro-orm/postgresql';
import { processAllDue } from '../use-cases/subscriptions/process-due.js';

export interface RenewalSchedulerOptions {
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
  /** Pause between passes when nothing was due. */
  intervalMs: number;
  batchSize: number;
  /**
   * Batch loops a pass runs at once; they claim disjoint rows (SKIP LOCKED). Unset: 1. The service
   * passes SCHEDULER_CONCURRENCY (default 2).
   */
  concurrency?: number;
}

/**
 * Runs due work of real-clock organizations (renewals, scheduled changes and cancellations,
 * expiries) pass after pass. Any number of replicas may run: they claim disjoint rows with
 * FOR UPDATE SKIP LOCKED. Test-clock organizations are processed only by ProcessDue.
 *
 * Its events are not handed over to the accounts read models: no caller waits to read them back
 * (a test clock's advance does, and ProcessDue hands them over), and the stream brings them there
 * moments after the commit. Handing them over too made a billing run apply each twice over, the
 * durable consumer's copy and the hand-over waiting on each other's inbox rows.
 */
export function startRenewalScheduler(
  options: RenewalSchedulerOptions,
): BackgroundWorker & { runOnce(): Promise<number> } {
  const runOnce = async () => {
    const work = { now: options.clock.now(), testClockOrganization: null, batchSize: options.batchSize };
    const hooks = { logger: options.logger };
    const loops = Array.from({ length: options.concurrency ?? 1 }, () => processAllDue(options.orm, work, hooks));
    // Every loop ended before the pass does (passes never overlap), a failed one's error its answer.
    const settled = await Promise.allSettled(loops);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.reduce((total, outcome) => total + (outcome.status === 'fulfilled' ? outcome.value : 0), 0);
  };
  return { ...startPollingWorker('renewal-scheduler', options.intervalMs, options.logger, runOnce), runOnce };
}
