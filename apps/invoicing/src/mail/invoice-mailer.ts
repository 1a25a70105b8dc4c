import { type Clock, systemClock } from '@billing/clock';
import type { InvoiceView } from '../domain/invoice-view.js';
import { type InvoiceMessage, invoiceMessage, type MailRecipient } from './invoice-message.js';
import type { MailConfig } from './mail-config.js';
import { outboxTransport } from './outbox-transport.js';
import { smtpTransport } from './smtp-transport.js';

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

/** Delivers one composed message and says which addresses it went to. */
export interface MailTransport {
  deliver(message: InvoiceMessage & { date: Date }, invoice: InvoiceView): Promise<string[]>;
}

/** SMTP when `smtpUrl` is set, otherwise .eml files in `outboxDir` for a developer to open. */
export function createInvoiceMailer(config: MailConfig, clock: Clock = systemClock): InvoiceMailer {
  const transport =
    config.smtpUrl === undefined ? outboxTransport(config.outboxDir, clock) : smtpTransport(config.smtpUrl);
  return {
    async send(invoice, pdf, recipients, replyTo) {
      const unique = uniqueRecipients(recipients);
      if (unique.length === 0) return { sent_to: [] };
      const message = invoiceMessage(invoice, pdf, unique, config.from, replyTo);
      return { sent_to: await transport.deliver({ ...message, date: clock.now() }, invoice) };
    },
  };
}

/** One address once, whatever its case; the first name given for it wins. */
function uniqueRecipients(recipients: ReadonlyArray<MailRecipient>): MailRecipient[] {
  const seen = new Set<string>();
  return recipients.filter((recipient) => {
    const key = recipient.email.trim().toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
