export { createInvoiceMailer, type InvoiceMailer } from './invoice-mailer.js';
export type { MailRecipient } from './invoice-message.js';
export { loadMailConfig, type MailConfig } from './mail-config.js';
