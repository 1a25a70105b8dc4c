import type { Logger } from '@billing/observability';
import type { BackgroundWorker } from '@billing/runtime';

/** Runs `pass` every `intervalMs` (after the previous pass ends) until stopped; a failing pass is logged. */
export function startPollingWorker(
  name: string,
  intervalMs: number,
  logger: Logger,
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
