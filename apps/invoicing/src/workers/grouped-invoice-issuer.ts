import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { issueDuePendingInvoices } from '../use-cases/issue-pending.js';

/**
 * Issues the grouped renewal invoices whose group window has passed, pass after pass (any
 * organization; replicas claim disjoint rows). The test clock's AwaitCharges issues an
 * organization's pending invoices itself (issuePendingNow).
 */
export function startGroupedInvoiceIssuer(deps: InvoicingDeps, intervalMs: number, logger: Logger): BackgroundWorker {
  return startPollingWorker('grouped-invoices', intervalMs, logger, () => issueDuePendingInvoices(deps));
}
