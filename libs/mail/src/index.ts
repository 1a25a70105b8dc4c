export { loadMailConfig, type MailConfig, OUTBOX_FROM } from './mail-config.js';
export { createMailer, type Mailer, type MailMessage, mailAddresses, mailTransport } from './mailer.js';
export { formatNumber, type NumberLanguage } from './number-format.js';
export { outboxTransport } from './outbox-transport.js';
export { smtpTransport } from './smtp-transport.js';
export { type MailRecipient, type MailTransport, type OutgoingMail, uniqueRecipients } from './transport.js';
