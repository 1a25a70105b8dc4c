import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { PaymentsDeps } from '../use-cases/deps.js';
import { type PaymentMailSender, sendPaymentMails } from '../use-cases/mail/send-payment-mails.js';

/** Sends the waiting payment and card mails, pass after pass. */
export function startPaymentMailSender(
  deps: PaymentsDeps,
  sender: PaymentMailSender,
  intervalMs: number,
  logger: Logger,
): BackgroundWorker {
  return startPollingWorker('payment-mail', intervalMs, logger, () => sendPaymentMails(deps, sender));
}
