import { type Clock, systemClock } from '@billing/clock';
import type { MailConfig } from './mail-config.js';
import { outboxTransport } from './outbox-transport.js';
import { smtpTransport } from './smtp-transport.js';
import type { MailRecipient, MailTransport, OutgoingMail } from './transport.js';

/** One message to send; the mailer dates it. */
export type MailMessage = Omit<OutgoingMail, 'date'>;

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
export function mailTransport(config: MailConfig, clock: Clock = systemClock): MailTransport {
  return config.smtpUrl === undefined ? outboxTransport(config.outboxDir, clock) : smtpTransport(config.smtpUrl);
}

/** A Mailer over the configured transport (mailTransport). */
export function createMailer(config: MailConfig, clock: Clock = systemClock): Mailer {
  const transport = mailTransport(config, clock);
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
