import { inTransaction } from '@billing/db';
import { type MailTransport, uniqueRecipients } from '@billing/mail';
import { LockMode } from '@mikro-orm/postgresql';
import { PaymentMailEntity, type PaymentMailRow } from '../../db/entities/payment-mail.entity.js';
import { mailRecipients, paymentMailText } from '../../domain/payment-mail.js';
import { systemContext } from '../charging/run-attempt.js';
import type { PaymentsDeps } from '../deps.js';

const MAX_ATTEMPTS = 10;

export interface PaymentMailSender {
  transport: MailTransport;
  /** MAIL_FROM: the sender address; the display name is the organization's. */
  from: string;
}

/**
 * Sends waiting payment mails one at a time, each claimed with SKIP LOCKED (so replicas never
 * take the same one) and marked sent in the transaction that claimed it. Written with the change
 * they tell of, a mail is never lost; a crash between the SMTP server's acceptance and this commit
 * sends it again with the same Message-ID (the mail's id), which mail programs show as one
 * message: SMTP itself has no way to make a delivery exactly-once.
 */
export async function sendPaymentMails(deps: PaymentsDeps, sender: PaymentMailSender, limit = 20): Promise<number> {
  let handled = 0;
  for (; handled < limit; handled++) {
    const claimed = await inTransaction(deps.orm, async (em) => {
      const mail = await em.findOne(
        PaymentMailEntity,
        { sent_at: null, attempts: { $lt: MAX_ATTEMPTS } },
        { orderBy: [{ created_at: 'asc' }, { id: 'asc' }], lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      if (!mail) return false;
      try {
        mail.sent_to = await deliver(deps, sender, mail);
        mail.sent_at = deps.clock.now();
      } catch (error) {
        mail.attempts += 1;
        mail.last_error = error instanceof Error ? error.message : String(error);
        deps.logger.warn({ err: error, mail: mail.id, attempts: mail.attempts }, 'payment e-mail failed; will retry');
      }
      return true;
    });
    if (!claimed) break;
  }
  return handled;
}

/** Sends one mail to the account's recipients with the mail's flag; none: nothing is sent. */
async function deliver(deps: PaymentsDeps, sender: PaymentMailSender, mail: PaymentMailRow): Promise<string[]> {
  const context = systemContext(mail.organization_id);
  const account = await deps.directory.account(context, mail.account_id);
  if (!account) return [];
  const recipients = uniqueRecipients(mailRecipients(mail.facts.kind, account.recipients));
  if (recipients.length === 0) return [];
  const organization = await deps.directory.organization(context);
  const { subject, text } = paymentMailText(mail.facts, account.language, organization);
  const domain = sender.from.slice(sender.from.lastIndexOf('@') + 1);
  return sender.transport.deliver(
    {
      from: { name: organization.name, address: sender.from },
      ...(organization.email ? { replyTo: organization.email } : {}),
      to: recipients.map((recipient) => ({ name: recipient.name, address: recipient.email })),
      subject,
      text,
      messageId: `<${mail.id}@${domain}>`,
      date: deps.clock.now(),
    },
    `${mail.kind.replaceAll('_', '-')}-${mail.id}`,
  );
}
