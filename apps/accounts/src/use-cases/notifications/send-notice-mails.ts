import { inTransaction } from '@billing/db';
import type { Mailer } from '@billing/mail';
import { mailAddresses } from '@billing/mail';
import type { Logger } from '@billing/observability';
import { LockMode } from '@mikro-orm/core';
import { SubscriptionNoticeMailEntity } from '../../db/entities/subscription-notice-mail.entity.js';
import type { AccountsDeps } from '../deps.js';

const MAX_ATTEMPTS = 10;

/**
 * Sends waiting subscription notification e-mails one at a time, claimed with SKIP LOCKED and
 * marked sent in the transaction that claimed them, as invoicing sends invoice e-mails: a crash
 * after sending re-sends at most that one mail, and none is lost. Returns how many were handled.
 */
export async function sendNoticeMails(
  deps: Pick<AccountsDeps, 'orm' | 'clock'>,
  mailer: Mailer,
  fromAddress: string,
  logger: Logger,
  limit = 20,
): Promise<number> {
  let handled = 0;
  for (; handled < limit; handled++) {
    const done = await inTransaction(deps.orm, async (em) => {
      const mail = await em.findOne(
        SubscriptionNoticeMailEntity,
        { sent_at: null, attempts: { $lt: MAX_ATTEMPTS } },
        { orderBy: [{ created_at: 'asc' }, { id: 'asc' }], lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
      );
      if (!mail) return false;
      try {
        await mailer.send(
          {
            from: { name: mail.from_name, address: fromAddress },
            ...(mail.reply_to === '' ? {} : { replyTo: mail.reply_to }),
            to: mailAddresses(mail.recipients),
            subject: mail.subject,
            text: mail.text,
          },
          `subscription-${mail.kind.replaceAll('_', '-')}-${mail.subscription_id}`,
        );
        mail.sent_at = deps.clock.now();
      } catch (error) {
        mail.attempts += 1;
        mail.last_error = error instanceof Error ? error.message : String(error);
        logger.warn(
          { err: error, mail: mail.id, attempts: mail.attempts },
          'subscription notice e-mail failed; will retry',
        );
      }
      return true;
    });
    if (!done) break;
  }
  return handled;
}
