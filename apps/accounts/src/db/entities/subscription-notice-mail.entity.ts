import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A subscription notification e-mail to send (docs/api.md "Subscription notifications"), written
 * in the transaction that handled its cause (the subscription.changed event's inbox transaction,
 * or the renewal notice's); the notice mail worker sends it. Its subject and text are written
 * then, so a resend after a crash sends the same message. `cause` (the event id, or the renewal
 * notice's id) is unique: one mail per cause, whichever path handled it.
 */
export const SubscriptionNoticeMailEntity = defineEntity({
  name: 'SubscriptionNoticeMail',
  tableName: 'subscription_notice_mail',
  uniques: [{ name: 'subscription_notice_mail_cause_unique', properties: ['cause'] }],
  indexes: [{ name: 'subscription_notice_mail_pending_idx', properties: ['sent_at', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    subscription_id: p.uuid(),
    cause: p.uuid(),
    /** started, renews_soon, changed, cancelled, reactivated */
    kind: p.string().length(16),
    from_name: p.string().length(256),
    reply_to: p.string().length(254),
    recipients: p.json<{ email: string; name: string }[]>(),
    subject: p.text(),
    text: p.text(),
    attempts: p.integer(),
    last_error: p.text().nullable(),
    sent_at: p.datetime().nullable(),
    created_at: p.datetime(),
  },
});

export type SubscriptionNoticeMailRow = InferEntity<typeof SubscriptionNoticeMailEntity>;
