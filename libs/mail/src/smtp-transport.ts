import nodemailer from 'nodemailer';
import type { MailTransport } from './transport.js';

/**
 * Sends through the SMTP server of `url` (smtp:// upgrades with STARTTLS when the server offers
 * it, smtps:// is TLS from the start). One connection per message: mails are sent a few at a
 * time, and a pool would keep a connection open to a server between worker passes.
 */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // Fail a worker pass's send in seconds, not after nodemailer's default two minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async deliver(message) {
      const info = await transporter.sendMail(message);
      return info.accepted.map(String);
    },
  };
}
