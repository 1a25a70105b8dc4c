import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { AccessPoint } from '../einvoice/access-point.js';
import { deliverDueEinvoices } from '../use-cases/deliver-einvoices.js';
import type { InvoicingDeps } from '../use-cases/deps.js';

/**
 * Delivers the e-invoices due by the real clock (first attempts and retries), pass after pass.
 * Organizations on a test clock are left to their advance.
 */
export function startEinvoiceSender(
  deps: InvoicingDeps,
  accessPoint: AccessPoint,
  intervalMs: number,
  logger: Logger,
): BackgroundWorker {
  return startPollingWorker('einvoice-delivery', intervalMs, logger, () =>
    deliverDueEinvoices(deps, accessPoint, { kind: 'real_clock', now: deps.clock.now() }, logger),
  );
}
