import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An invoice e-mail to send, written with the issue (or the send action) or with a payment
 * reminder; the mail worker sends it.
 */
export const MailJobEntity = defineEntity({
  name: 'MailJob',
  tableName: 'mail_job',
  indexes: [{ name: 'mail_job_pending_idx', properties: ['sent_at', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    invoice_id: p.uuid(),
    recipients: p.json<{ email: string; name?: string }[]>(),
    /**
     * The organization's e-mail when the mail was asked for, its Reply-To ('' for none): the
     * issue takes the invoice's seller e-mail, the send action the organization's current one.
     */
    reply_to: p.string().length(254).default(''),
    /** Set for a payment reminder's e-mail: the reminder; null for the invoice's own e-mail. */
    reminder_id: p.uuid().nullable(),
    attempts: p.integer(),
    last_error: p.text().nullable(),
    sent_at: p.datetime().nullable(),
    created_at: p.datetime(),
  },
});

export type MailJobRow = InferEntity<typeof MailJobEntity>;
