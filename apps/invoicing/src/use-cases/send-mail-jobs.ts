import { inTransaction } from '@billing/db';
import type { Logger } from '@billing/observability';
import { LockMode } from '@mikro-orm/core';
import { InvoiceEntity } from '../db/entities/invoice.entity.js';
import { InvoiceReminderEntity } from '../db/entities/invoice-reminder.entity.js';
import { MailJobEntity } from '../db/entities/mail-job.entity.js';
import { invoiceViewWithLines } from '../db/invoice-view.js';
import { reminderView } from '../db/reminder-store.js';
import { renderInvoicePdf } from '../documents/invoice-pdf.js';
import type { InvoiceMailer } from '../mail/invoice-mailer.js';
import type { InvoicingDeps } from './deps.js';

const MAX_ATTEMPTS = 10;

/**
 * Sends waiting invoice e-mails (written with the issue or by the send action) and payment
 * reminders (written with the reminder), one job at a time, claimed with SKIP LOCKED: a job is marked sent in the transaction that claimed it, so a
 * crash after sending re-sends at most that one mail (at least once, never lost).
 */
export async function sendMailJobs(
  deps: InvoicingDeps,
  mailer: InvoiceMailer,
  logger: Logger,
  limit = 20,
): Promise<number> {
  let sent = 0;
  for (; sent < limit; sent++) {
    const done = await inTransaction(deps.orm, async (em) => {
      const job = await em.findOne(
        MailJobEntity,
        { sent_at: null, attempts: { $lt: MAX_ATTEMPTS } },
        { orderBy: [{ created_at: 'asc' }, { id: 'asc' }], lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      if (!job) return false;
      const invoice = await em.findOneOrFail(InvoiceEntity, { id: job.invoice_id });
      const view = await invoiceViewWithLines(em, invoice);
      try {
        const pdf = await renderInvoicePdf(view);
        if (job.reminder_id) {
          const reminder = await em.findOneOrFail(InvoiceReminderEntity, { id: job.reminder_id });
          const shown = reminderView(reminder, invoice.currency);
          await mailer.sendReminder(view, shown, pdf, job.recipients, job.reply_to);
        } else {
          await mailer.send(view, pdf, job.recipients, job.reply_to);
        }
        job.sent_at = deps.clock.now();
      } catch (error) {
        job.attempts += 1;
        job.last_error = error instanceof Error ? error.message : String(error);
        logger.warn({ err: error, invoice: invoice.id, attempts: job.attempts }, 'invoice e-mail failed; will retry');
      }
      return true;
    });
    if (!done) break;
  }
  return sent;
}
