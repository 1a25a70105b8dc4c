import type { BackgroundWorker } from './service-module.js';

/**
 * Runs `pass` again `intervalMs` after the previous pass ended, until stopped: the loop of every
 * worker that polls for due work (subscriptions' renewal scheduler, invoicing's grouped-invoice
 * issuer and mail sender). A failing pass is logged with the worker's `name` and the loop goes on;
 * passes never overlap. `stop()` cancels the next pass and resolves once a running one has ended.
 */
export function startPollingWorker(
  name: string,
  intervalMs: number,
  logger: { error(details: object, message: string): void },
  pass: () => Promise<unknown>,
): WakeableWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  /** A wake came during a pass: the next pass follows at once (the work may have come too late for it). */
  let again = false;
  const loop = async (): Promise<void> => {
    if (stopped) return;
    timer = null;
    again = false;
    try {
      await pass();
    } catch (error) {
      logger.error({ err: error, worker: name }, 'worker pass failed');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), again ? 0 : intervalMs);
  };
  running = loop();
  return {
    wake() {
      if (stopped) return;
      if (timer === null) {
        again = true;
        return;
      }
      clearTimeout(timer);
      timer = null;
      running = loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** A polling worker that can be told work is waiting, so it does not sleep out its interval. */
export interface WakeableWorker extends BackgroundWorker {
  wake(): void;
}
