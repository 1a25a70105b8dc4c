import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { PaymentMailFacts } from '../../domain/payment-mail.js';

/**
 * An e-mail to the account's recipients about a payment or a card (domain/payment-mail), written
 * in the transaction of what it tells of, so it is never lost; the mail worker sends it. One per
 * (kind, subject): the same attempt or card notice never makes two.
 */
export const PaymentMailEntity = defineEntity({
  name: 'PaymentMail',
  tableName: 'payment_mail',
  indexes: [{ name: 'payment_mail_pending_idx', properties: ['sent_at', 'created_at'] }],
  uniques: [{ name: 'payment_mail_kind_subject_unique', properties: ['kind', 'subject_id'] }],
  properties: {
    /** Also the mail's Message-ID, so a mail sent again after a crash is the same message. */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    /** payment_confirmation, payment_declined, card_expires_this_month. */
    kind: p.string().length(32),
    /** The attempt (payment mails) or the card (card_expires_this_month) it tells of. */
    subject_id: p.uuid(),
    /** What the text says (amount, card, dates), taken when the mail was written. */
    facts: p.json<PaymentMailFacts>(),
    attempts: p.integer(),
    last_error: p.text().nullable(),
    /** The addresses it went to (none when the account has no recipient with the flag). */
    sent_to: p.json<string[]>().nullable(),
    sent_at: p.datetime().nullable(),
    created_at: p.datetime(),
  },
});

export type PaymentMailRow = InferEntity<typeof PaymentMailEntity>;
