import type { EventBus, EventEnvelope, EventsLogger, RunningConsumer } from '@billing/events';
import { startConsumer, streamNameFor, subjectFor } from '@billing/events';
import { type CurrencyCode, formatAmount, money } from '@billing/money';
import { peekStrings, subscriptionEventsV1, subscriptionsV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DueRenewalNotice } from '../db/renewal-notice-store.js';
import { noticeKindOf, type PeriodPrice } from '../domain/notifications/subscription-notice.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import {
  queueSubscriptionNotice,
  type SubscriptionNoticeInput,
} from '../use-cases/notifications/queue-subscription-notice.js';
import { readModelSchema } from './read-model-feeds.js';

/** The durable consumer's name (replicas share it; one per throwaway schema in tests). Also its inbox key. */
export function subscriptionNoticesConsumerName(schema: string): string {
  return `${schema}-subscription-notices`;
}

/** One period's price of a pricing: the discounted unit price times the quantity, rounded to the currency. */
function periodPrice(pricing: subscriptionEventsV1.SubscriptionPricing): PeriodPrice {
  const amount = money(pricing.discounted_unit_price || pricing.unit_price).times(pricing.quantity);
  return {
    amount: formatAmount(amount, pricing.currency as CurrencyCode),
    currency: pricing.currency,
    interval_type: pricing.interval_type,
    interval_count: pricing.interval_count,
  };
}

/** The notice a subscription.changed event gives, if any (noticeKindOf says which changes do). */
export function noticeOfEvent(envelope: EventEnvelope): SubscriptionNoticeInput | null {
  const payload = subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload);
  const subscription = payload.subscription;
  if (!subscription || !payload.new_pricing || !payload.effective_at) return null;
  const kind = noticeKindOf(payload.change, payload.change_type);
  if (kind === null) return null;
  // A scheduled change: the pricing it will have; before it, the pricing in force.
  const scheduled = payload.change === 'change_scheduled';
  const after = scheduled ? (payload.scheduled_pricing ?? payload.new_pricing) : payload.new_pricing;
  const before = scheduled ? payload.new_pricing : payload.old_pricing;
  return {
    organizationId: envelope.organization_id,
    accountId: subscription.account,
    subscriptionId: subscription.uuid,
    cause: envelope.event_id,
    kind,
    plan: subscription.plan?.name ?? '',
    effectiveAt: payload.effective_at,
    quantity: after.quantity,
    price: periodPrice(after),
    nextRenewalAt: subscription.next_renewal_date ?? null,
    ...(kind === 'changed' && before ? { before: { quantity: before.quantity, price: periodPrice(before) } } : {}),
  };
}

/**
 * Whether noticeOfEvent gives nothing for the event, deciding most events from two fields of the
 * payload: SubscriptionChanged.change (2) and change_type (6) name no notice for a renewal or an
 * edit, and their copies are acknowledged without decoding the rest of the subscription. The others
 * are decoded as the handler decodes them.
 */
export function givesNoNotice(envelope: EventEnvelope): boolean {
  const [change = '', changeType = ''] = peekStrings(envelope.payload, [2, 6]);
  return noticeKindOf(change, changeType) === null || noticeOfEvent(envelope) === null;
}

/** renews_soon from a renewal notice of the read model (the stored Subscription), cause its notice id. */
export function noticeOfRenewal(notice: DueRenewalNotice, noticeId: string): SubscriptionNoticeInput {
  const subscription = subscriptionsV1.Subscription.decode(notice.snapshot);
  return {
    organizationId: notice.organizationId,
    accountId: subscription.account,
    subscriptionId: subscription.uuid,
    cause: noticeId,
    kind: 'renews_soon',
    plan: subscription.plan?.name ?? '',
    effectiveAt: notice.renewalAt,
    quantity: subscription.quantity,
    price: {
      amount: subscription.final_price,
      currency: subscription.terms?.currency ?? '',
      interval_type: subscription.terms?.interval_type ?? '',
      interval_count: subscription.terms?.interval_count ?? 1,
    },
    nextRenewalAt: notice.renewalAt,
  };
}

/** Queues the notice of one subscription.changed event (if it gives one) in its inbox transaction. */
export function subscriptionNoticeHandler(
  deps: Pick<AccountsDeps, 'clock'>,
): (em: EntityManager, envelope: EventEnvelope) => Promise<void> {
  return async (em, envelope) => {
    const notice = noticeOfEvent(envelope);
    if (notice) await queueSubscriptionNotice(em, notice, deps.clock.now());
  };
}

/**
 * subscriptionNoticeHandler for a batch, event after event in order: most subscription.changed
 * events give no notice (renewals, edits), and they then cost only their share of the batch's
 * transaction and inbox insert.
 */
export function subscriptionNoticesHandler(
  deps: Pick<AccountsDeps, 'clock'>,
): (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void> {
  const handle = subscriptionNoticeHandler(deps);
  return async (em, envelopes) => {
    for (const envelope of envelopes) await handle(em, envelope);
  };
}

/** The consumer of subscriptions.subscription.changed that queues subscription notification e-mails. */
export async function startSubscriptionNoticeConsumer(
  deps: Pick<AccountsDeps, 'orm' | 'clock'> & { logger: EventsLogger; bus: EventBus | null },
): Promise<RunningConsumer[]> {
  if (!deps.bus) {
    deps.logger.warn('no event bus configured: no subscription notifications are mailed');
    return [];
  }
  return [
    await startConsumer({
      orm: deps.orm,
      bus: deps.bus,
      logger: deps.logger,
      clock: deps.clock,
      consumer: subscriptionNoticesConsumerName(readModelSchema(deps.orm)),
      stream: streamNameFor('subscriptions'),
      filterSubject: subjectFor('subscriptions', 'subscription.changed'),
      handle: subscriptionNoticeHandler(deps),
      batch: true,
      handleBatch: subscriptionNoticesHandler(deps),
      // Most changes (renewals, edits) give no notice, decided from the event alone: acknowledged
      // without a transaction. A notice's cause is its event, so the inbox is needed only for those.
      ignore: givesNoNotice,
    }),
  ];
}
