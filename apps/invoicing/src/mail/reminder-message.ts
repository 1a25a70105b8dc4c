import type { MailRecipient } from '@billing/mail';
import type { InvoiceView } from '../domain/invoice-view.js';
import { formatNumber } from '../domain/language/number-format.js';
import { documentLanguage, text } from '../domain/language/texts.js';
import type { InvoiceReminderView } from '../domain/reminders/reminder-view.js';
import { attachmentName, type InvoiceMessage, invoiceMessage, invoiceNumber } from './invoice-message.js';

/**
 * A payment reminder in the invoice's language (en, da; English otherwise): which invoice, what
 * is still owed and since when, the fee it added if any; from and replying to the same addresses
 * as the invoice's own e-mail, the invoice's PDF attached again.
 */
export function reminderMessage(
  invoice: InvoiceView,
  reminder: InvoiceReminderView,
  pdf: Buffer,
  recipients: ReadonlyArray<MailRecipient>,
  fromAddress: string,
  replyTo: string,
): InvoiceMessage {
  const language = documentLanguage(invoice.language);
  const values = {
    reminder: reminder.number,
    number: invoiceNumber(invoice),
    seller: invoice.seller.name,
    balance: formatNumber(invoice.balance, language),
    currency: invoice.currency,
    dueDate: invoice.due_date,
  };
  const fee =
    reminder.fee === null
      ? ''
      : text(language, 'mailReminderFee', { fee: formatNumber(reminder.fee, language), currency: invoice.currency });
  return {
    ...invoiceMessage(invoice, pdf, recipients, fromAddress, replyTo),
    subject: text(language, 'mailSubjectReminder', values),
    text: text(language, 'mailBodyReminder', values) + fee + text(language, 'mailReminderClosing', values),
    attachments: [{ filename: attachmentName(invoice), content: pdf, contentType: 'application/pdf' }],
  };
}
