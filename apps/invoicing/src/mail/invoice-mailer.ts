import type { Clock } from '@billing/clock';
import { createMailer, type MailConfig, type MailRecipient } from '@billing/mail';
import type { InvoiceView } from '../domain/invoice-view.js';
import type { InvoiceReminderView } from '../domain/reminders/reminder-view.js';
import { invoiceMessage, mailName } from './invoice-message.js';
import { reminderMessage } from './reminder-message.js';

export interface InvoiceMailer {
  /**
   * Mails the invoice with its PDF to the recipients in one message. Returns the addresses it
   * went to: those the SMTP server accepted (a server rejecting every recipient is an error), or
   * every recipient when mails go to the outbox folder. No recipients: nothing is sent.
   */
  send(
    invoice: InvoiceView,
    pdf: Buffer,
    recipients: ReadonlyArray<MailRecipient>,
    /** The Reply-To: the organization's e-mail ('' for none). */
    replyTo: string,
  ): Promise<{ sent_to: string[] }>;
  /** Mails a payment reminder of the invoice, its PDF attached; as `send` otherwise. */
  sendReminder(
    invoice: InvoiceView,
    reminder: InvoiceReminderView,
    pdf: Buffer,
    recipients: ReadonlyArray<MailRecipient>,
    replyTo: string,
  ): Promise<{ sent_to: string[] }>;
}

/** SMTP when `smtpUrl` is set, otherwise .eml files in `outboxDir` (@billing/mail). */
export function createInvoiceMailer(config: MailConfig, clock?: Clock): InvoiceMailer {
  const mailer = createMailer(config, clock);
  return {
    send: (invoice, pdf, recipients, replyTo) =>
      mailer.send(invoiceMessage(invoice, pdf, recipients, config.from, replyTo), mailName(invoice)),
    sendReminder: (invoice, reminder, pdf, recipients, replyTo) =>
      mailer.send(
        reminderMessage(invoice, reminder, pdf, recipients, config.from, replyTo),
        `reminder-${reminder.number}-${mailName(invoice)}`,
      ),
  };
}
