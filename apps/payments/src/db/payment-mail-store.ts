import { pgArray } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentMailFacts } from '../domain/payment-mail.js';

/**
 * The mail sender's statements (use-cases/mail/send-payment-mails) as plain SQL in its
 * transaction, one per batch of mails: claiming them and storing what became of them.
 */

/** A waiting payment mail as the sender reads it. */
export interface ClaimedPaymentMail {
  id: string;
  organization_id: string;
  account_id: string;
  kind: string;
  facts: PaymentMailFacts;
  attempts: number;
}

/**
 * Up to `limit` waiting mails (not sent, fewer than `maxAttempts` failures), oldest first, locked
 * until the transaction ends; mails another transaction holds are skipped (another sender has them).
 */
export async function claimPaymentMails(
  em: EntityManager,
  maxAttempts: number,
  limit: number,
): Promise<ClaimedPaymentMail[]> {
  const rows = await em.execute<ClaimedPaymentMail[]>(
    `select id, organization_id, account_id, kind, facts, attempts from payment_mail
      where sent_at is null and attempts < ?
      order by created_at, id limit ?
      for update skip locked`,
    [maxAttempts, limit],
  );
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
}

/** What became of a claimed mail (its organization, its id): sent (to these addresses, at that moment) or failed (with this error). */
export type PaymentMailOutcome = { organization_id: string; id: string } & (
  | { sent_to: string[]; sent_at: Date }
  | { last_error: string }
);

/**
 * Stores the outcomes of a batch in one statement: a sent mail gets its addresses and moment, a
 * failed one an attempt more and its error (it is tried again while it has attempts left). The
 * outcomes come as one array per column, so that the planner knows the batch's size and looks each
 * mail up by its primary key (a JSON document counts as 100 rows: against a table of a few thousand
 * mails, without statistics, it hash-joined them to a scan of the whole table).
 */
export async function storePaymentMailOutcomes(
  em: EntityManager,
  outcomes: readonly PaymentMailOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await em.execute(
    `update payment_mail m
        set sent_to = coalesce(r.sent_to, m.sent_to), sent_at = coalesce(r.sent_at, m.sent_at),
            attempts = m.attempts + case when r.last_error is null then 0 else 1 end,
            last_error = coalesce(r.last_error, m.last_error)
       from unnest(?::uuid[], ?::uuid[], ?::jsonb[], ?::timestamptz[], ?::text[])
         as r(organization_id, id, sent_to, sent_at, last_error)
      where m.id = r.id and m.organization_id = r.organization_id`,
    [
      pgArray(outcomes.map((outcome) => outcome.organization_id)),
      pgArray(outcomes.map((outcome) => outcome.id)),
      pgArray(outcomes.map((outcome) => ('sent_to' in outcome ? JSON.stringify(outcome.sent_to) : null))),
      pgArray(outcomes.map((outcome) => ('sent_at' in outcome ? outcome.sent_at : null))),
      pgArray(outcomes.map((outcome) => ('last_error' in outcome ? outcome.last_error : null))),
    ],
  );
}
