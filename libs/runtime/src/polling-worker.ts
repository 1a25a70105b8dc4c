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
): BackgroundWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const loop = async (): Promise<void> => {
    if (stopped) return;
    try {
      await pass();
    } catch (error) {
      logger.error({ err: error, worker: name }, 'worker pass failed');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), intervalMs);
  };
  running = loop();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
