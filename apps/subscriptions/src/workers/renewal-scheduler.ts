import type { Clock } from '@billing/clock';
import type { Logger } from '@billing/observability';
import type { BackgroundWorker, CommittedEventsListener } from '@billing/runtime';
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
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();

  const runOnce = () =>
    processAllDue(
      options.orm,
      { now: options.clock.now(), testClockOrganization: null, batchSize: options.batchSize },
      { logger: options.logger, committedEvents: options.committedEvents },
    );

  const loop = async (): Promise<void> => {
    if (stopped) return;
    try {
      await runOnce();
    } catch (error) {
      options.logger.error({ err: error }, 'renewal scheduler pass failed');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), options.intervalMs);
  };
  running = loop();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
