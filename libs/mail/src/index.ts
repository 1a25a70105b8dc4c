export { loadMailConfig, type MailConfig, OUTBOX_FROM } from './mail-config.js';
export {
  createMailer,
  type Mailer,
  type MailMessage,
  type MailRecipient,
  type MailTransport,
  mailAddresses,
} from './mailer.js';
