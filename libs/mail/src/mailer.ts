import { type Clock, systemClock } from '@billing/clock';
import type { MailConfig } from './mail-config.js';
import { outboxTransport } from './outbox-transport.js';
import { smtpTransport } from './smtp-transport.js';

export interface MailRecipient {
  email: string;
  name?: string | undefined;
}

/** One message as nodemailer sends it (a subset of its SendMailOptions); the `from` name is the sender's. */
export interface MailMessage {
  from: { name: string; address: string };
  replyTo?: string;
  to: Array<{ name: string; address: string }>;
  subject: string;
  text: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

/** Delivers one composed message and says which addresses it went to. */
export interface MailTransport {
  /** `name` names the message where it is kept as a file (the outbox folder), e.g. invoice-12. */
  deliver(message: MailMessage & { date: Date }, name: string): Promise<string[]>;
}

export interface Mailer {
  /**
   * Sends the message to its recipients (each address once, whatever its case; the first name
   * given for it wins). Returns the addresses it went to: those the SMTP server accepted (a server
   * rejecting every recipient is an error), or every recipient when mails go to the outbox
   * folder. No recipients: nothing is sent.
   */
  send(message: MailMessage, name: string): Promise<{ sent_to: string[] }>;
}

/** SMTP when `smtpUrl` is set, otherwise .eml files in `outboxDir` for a developer to open. */
export function createMailer(config: MailConfig, clock: Clock = systemClock): Mailer {
  const transport =
    config.smtpUrl === undefined ? outboxTransport(config.outboxDir, clock) : smtpTransport(config.smtpUrl);
  return {
    async send(message, name) {
      const to = uniqueAddresses(message.to);
      if (to.length === 0) return { sent_to: [] };
      return { sent_to: await transport.deliver({ ...message, to, date: clock.now() }, name) };
    },
  };
}

/** `recipients` as message addresses (no name: ''). */
export function mailAddresses(recipients: ReadonlyArray<MailRecipient>): Array<{ name: string; address: string }> {
  return recipients.map((recipient) => ({ name: recipient.name ?? '', address: recipient.email }));
}

function uniqueAddresses(addresses: ReadonlyArray<{ name: string; address: string }>) {
  const seen = new Set<string>();
  return addresses.filter((recipient) => {
    const key = recipient.address.trim().toLowerCase();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
