import { type Clock, systemClock } from '@billing/clock';
import type { MailConfig } from './mail-config.js';
import { outboxTransport } from './outbox-transport.js';
import { smtpTransport } from './smtp-transport.js';
import type { MailTransport } from './transport.js';

export { loadMailConfig, type MailConfig, OUTBOX_FROM } from './mail-config.js';
export { formatNumber, type NumberLanguage } from './number-format.js';
export { outboxTransport } from './outbox-transport.js';
export { smtpTransport } from './smtp-transport.js';
export { type MailRecipient, type MailTransport, type OutgoingMail, uniqueRecipients } from './transport.js';

/** SMTP when `smtpUrl` is set, otherwise .eml files in `outboxDir` for a developer to open. */
export function mailTransport(config: MailConfig, clock: Clock = systemClock): MailTransport {
  return config.smtpUrl === undefined ? outboxTransport(config.outboxDir, clock) : smtpTransport(config.smtpUrl);
}
