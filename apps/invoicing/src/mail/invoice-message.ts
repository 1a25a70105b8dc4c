import { type MailMessage, type MailRecipient, mailAddresses } from '@billing/mail';
import type { InvoiceView } from '../domain/invoice-view.js';
import { formatNumber } from '../domain/language/number-format.js';
import { documentLanguage, text } from '../domain/language/texts.js';

/** What nodemailer needs to send one invoice: its PDF is attached. */
export type InvoiceMessage = MailMessage & {
  attachments: Array<{ filename: string; content: Buffer; contentType: 'application/pdf' }>;
};

/** invoice-12, credit-note-13: the mail's name (its .eml file in the outbox folder). */
export function mailName(invoice: InvoiceView): string {
  return `${invoice.is_credit_note ? 'credit-note' : 'invoice'}-${invoiceNumber(invoice)}`;
}

/** invoice-12.pdf, credit-note-13.pdf */
export function attachmentName(invoice: InvoiceView): string {
  return `${mailName(invoice)}.pdf`;
}

/**
 * The e-mail of an issued invoice in its language (en, da; English otherwise; the total written
 * the language's way): the sender named after the seller, replies to `replyTo` (the
 * organization's e-mail; no Reply-To when ''), one message to every recipient, the PDF attached.
 */
export function invoiceMessage(
  invoice: InvoiceView,
  pdf: Buffer,
  recipients: ReadonlyArray<MailRecipient>,
  fromAddress: string,
  replyTo: string,
): InvoiceMessage {
  const language = documentLanguage(invoice.language);
  const seller = invoice.seller.name;
  const number = invoiceNumber(invoice);
  const total = formatNumber(invoice.total, language);
  const values = { number, seller, total, currency: invoice.currency, dueDate: invoice.due_date };
  const message: InvoiceMessage = {
    from: { name: seller, address: fromAddress },
    to: mailAddresses(recipients),
    subject: invoice.is_credit_note
      ? text(language, 'mailSubjectCreditNote', values)
      : text(language, 'mailSubjectInvoice', values),
    text: invoice.is_credit_note
      ? text(language, 'mailBodyCreditNote', values)
      : text(language, 'mailBodyInvoice', values),
    attachments: [{ filename: attachmentName(invoice), content: pdf, contentType: 'application/pdf' }],
  };
  if (replyTo !== '') message.replyTo = replyTo;
  return message;
}

export function invoiceNumber(invoice: InvoiceView): string {
  // A computed (upcoming) invoice has no number and is never mailed.
  if (invoice.invoice_number === null) throw new Error(`invoice ${invoice.uuid} has no number to mail`);
  return invoice.invoice_number;
}
