import type { Mailer } from '@billing/mail';
import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { AccountsDeps } from '../use-cases/deps.js';
import { sendNoticeMails } from '../use-cases/notifications/send-notice-mails.js';

/** Sends the waiting subscription notification e-mails, pass after pass. */
export function startNoticeMailSender(
  deps: Pick<AccountsDeps, 'orm' | 'clock'>,
  mailer: Mailer,
  fromAddress: string,
  intervalMs: number,
  logger: Logger,
): BackgroundWorker {
  return startPollingWorker('subscription-notice-mail', intervalMs, logger, () =>
    sendNoticeMails(deps, mailer, fromAddress, logger),
  );
}
