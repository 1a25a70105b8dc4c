import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountEntity } from '../../db/entities/account.entity.js';
import { OrganizationEntity } from '../../db/entities/organization.entity.js';
import { RecipientEntity } from '../../db/entities/recipient.entity.js';
import { SubscriptionNoticeMailEntity } from '../../db/entities/subscription-notice-mail.entity.js';
import {
  localDay,
  type NoticeKind,
  noticeLanguage,
  type PeriodPrice,
  subscriptionNotice,
} from '../../domain/notifications/subscription-notice.js';

/** What happened to a subscription, as a notice needs it (events/ maps the event or snapshot here). */
export interface SubscriptionNoticeInput {
  organizationId: string;
  accountId: string;
  subscriptionId: string;
  /** The event id, or the renewal notice's id: one mail per cause. */
  cause: string;
  kind: NoticeKind;
  plan: string;
  /** The moment it takes effect. */
  effectiveAt: Date;
  quantity: number;
  price: PeriodPrice;
  nextRenewalAt: Date | null;
  before?: { quantity: number; price: PeriodPrice };
}

/**
 * Queues the notice's e-mail to the account's recipients with receive_subscription_notifications,
 * in the caller's transaction, written in the account's language with days on the organization's
 * time zone; from the organization, replying to its e-mail. No such recipient (or the account
 * gone): nothing. A cause queued before: nothing (its mail is queued already). Returns whether a
 * mail was queued.
 */
export async function queueSubscriptionNotice(
  em: EntityManager,
  input: SubscriptionNoticeInput,
  now: Date,
): Promise<boolean> {
  if ((await em.count(SubscriptionNoticeMailEntity, { cause: input.cause })) > 0) return false;
  const account = await em.findOne(AccountEntity, { id: input.accountId, organization_id: input.organizationId });
  if (!account) return false;
  const recipients = await em.find(
    RecipientEntity,
    { organization_id: input.organizationId, account_id: input.accountId, receive_subscription_notifications: true },
    { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
  );
  const addressed = recipients.filter((recipient) => recipient.email.trim() !== '');
  if (addressed.length === 0) return false;
  const organization = await em.findOneOrFail(OrganizationEntity, { id: input.organizationId });
  const day = (instant: Date) => localDay(instant, organization.time_zone);
  const message = subscriptionNotice({
    kind: input.kind,
    language: noticeLanguage(account.language),
    organization: organization.name,
    plan: input.plan,
    date: day(input.effectiveAt),
    quantity: input.quantity,
    price: input.price,
    next_renewal: input.nextRenewalAt === null ? null : day(input.nextRenewalAt),
    ...(input.before ? { before: input.before } : {}),
  });
  em.create(SubscriptionNoticeMailEntity, {
    id: randomUUID(),
    organization_id: input.organizationId,
    account_id: input.accountId,
    subscription_id: input.subscriptionId,
    cause: input.cause,
    kind: input.kind,
    from_name: organization.name,
    reply_to: organization.email,
    recipients: addressed.map((recipient) => ({ email: recipient.email, name: recipient.name })),
    subject: message.subject,
    text: message.text,
    attempts: 0,
    last_error: null,
    sent_at: null,
    created_at: now,
  });
  await em.flush();
  return true;
}
