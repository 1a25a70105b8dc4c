import type { Logger } from '@billing/observability';
import { type BackgroundWorker, startPollingWorker } from '@billing/runtime';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { sendDueRemindersEverywhere } from '../use-cases/send-reminders.js';

/**
 * Sends the payment reminders that fell due for organizations on the real clock, pass after pass
 * (test-clock organizations: their advance runs SendDueReminders).
 */
export function startReminderSender(deps: InvoicingDeps, intervalMs: number, logger: Logger): BackgroundWorker {
  return startPollingWorker('payment-reminders', intervalMs, logger, () => sendDueRemindersEverywhere(deps, logger));
}
