import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { Charger } from '../use-cases/charging/charger.js';
import { settleOutstanding } from '../use-cases/charging/settle.js';
import type { PaymentsDeps } from '../use-cases/deps.js';

/**
 * Runs the attempts due on the service clock for organizations on the real clock (first attempts
 * whose immediate run failed, dunning retries, attempts a crash left pending) and settles
 * succeeded payments invoicing has not confirmed yet. Test-clock organizations are run by their
 * clock's advance (ProcessDue).
 */
export function startChargeRunner(
  deps: PaymentsDeps,
  charger: Charger,
  intervalMs: number,
  logger: Logger,
): BackgroundWorker {
  return startPollingWorker('charge-runner', intervalMs, logger, async () => {
    const now = deps.clock.now();
    await charger.runDue({ test_clock: false }, now, () => now);
    await settleOutstanding(deps);
  });
}
