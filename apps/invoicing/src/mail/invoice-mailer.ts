import { type Clock, systemClock } from '@billing/clock';
import { type MailConfig, type MailRecipient, mailTransport, uniqueRecipients } from '@billing/mail';
import type { InvoiceView } from '../domain/invoice-view.js';
import { invoiceMessage } from './invoice-message.js';

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
}

/** SMTP when `smtpUrl` is set, otherwise .eml files in `outboxDir` for a developer to open. */
export function createInvoiceMailer(config: MailConfig, clock: Clock = systemClock): InvoiceMailer {
  const transport = mailTransport(config, clock);
  return {
    async send(invoice, pdf, recipients, replyTo) {
      const unique = uniqueRecipients(recipients);
      if (unique.length === 0) return { sent_to: [] };
      const message = invoiceMessage(invoice, pdf, unique, config.from, replyTo);
      const name = `${invoice.is_credit_note ? 'credit-note' : 'invoice'}-${invoice.invoice_number}`;
      return { sent_to: await transport.deliver({ ...message, date: clock.now() }, name) };
    },
  };
}
