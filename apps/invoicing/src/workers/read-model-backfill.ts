import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import { publishBackfilledInvoices } from '../use-cases/backfill-read-model.js';
import type { InvoicingDeps } from '../use-cases/deps.js';

/**
 * Publishes, pass after pass, the invoices the accounts read model was never sent (filled once by a
 * migration, see publishBackfilledInvoices); once they are all sent a pass is one empty query.
 */
export function startReadModelBackfill(deps: InvoicingDeps, intervalMs: number, logger: Logger): BackgroundWorker {
  return startPollingWorker('invoice-read-model-backfill', intervalMs, logger, () => publishBackfilledInvoices(deps));
}
