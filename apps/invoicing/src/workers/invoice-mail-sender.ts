import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { InvoiceMailer } from '../mail/invoice-mailer.js';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { sendMailJobs } from '../use-cases/send-mail-jobs.js';

/** Sends the waiting invoice e-mails (the and the send action's), pass after pass. */
export function startInvoiceMailSender(
  deps: InvoicingDeps,
  mailer: InvoiceMailer,
  intervalMs: number,
  logger: Logger,
): BackgroundWorker {
  return startPollingWorker('invoice-mail', intervalMs, logger, () => sendMailJobs(deps, mailer, logger));
}
