import { canonicalUuidOrText } from '@billing/domain-kit';
import type { subscriptionEventsV1, subscriptionsV1 } from '@billing/proto';
import type { Pricing } from '../domain/pricing.js';
import type { SubscriptionChange } from '../domain/subscription-activities.js';
import type { SubscriptionRecord } from '../domain/subscription-record.js';

function pricingOf(message: subscriptionEventsV1.SubscriptionPricing): Pricing {
  return {
    terms: canonicalUuidOrText(message.terms),
    plan: canonicalUuidOrText(message.plan),
    status: message.status,
    quantity: message.quantity,
    currency: message.currency,
    unit_price: message.unit_price,
    mrr: message.mrr,
  };
}

/**
 * subscription.changed as the domain reads it: the change and the subscription's resulting record.
 * Every id in Postgres' form (canonicalUuidOrText): a batch keys subscriptions, accounts and churn
 * reasons by these strings in memory, where the one-by-one path lets Postgres compare uuids.
 */
export function subscriptionChangeOf(payload: subscriptionEventsV1.SubscriptionChanged): {
  change: SubscriptionChange;
  record: SubscriptionRecord;
} {
  const subscription = payload.subscription as subscriptionsV1.Subscription | undefined;
  if (!subscription?.last_modified_date || !payload.new_pricing) {
    throw new Error('subscription.changed without its subscription');
  }
  const modified = subscription.last_modified_date;
  const next = pricingOf(payload.new_pricing);
  const scheduled = payload.scheduled_pricing ? pricingOf(payload.scheduled_pricing) : null;
  const change: SubscriptionChange = {
    change: payload.change,
    effective_at: payload.effective_at ?? modified,
    change_type: payload.change_type,
    cancellation_type: payload.cancellation_type,
    old: payload.old_pricing ? pricingOf(payload.old_pricing) : null,
    new: next,
    scheduled,
    subscription: {
      uuid: canonicalUuidOrText(subscription.uuid),
      account: canonicalUuidOrText(subscription.account),
      status: subscription.status,
      start_date: subscription.start_date ?? null,
      cancel_at: subscription.cancel_at ?? null,
      scheduled_change_at: subscription.scheduled_changes[0]?.date ?? null,
      churn_reason: subscription.churn_reason == null ? null : canonicalUuidOrText(subscription.churn_reason),
      custom_churn_reason: subscription.custom_churn_reason ?? null,
    },
  };
  const record: SubscriptionRecord = {
    uuid: canonicalUuidOrText(subscription.uuid),
    account: canonicalUuidOrText(subscription.account),
    status: subscription.status,
    collection_method: subscription.collection_method,
    has_custom_price: subscription.override_price !== undefined && subscription.override_price !== null,
    payment_terms: subscription.payment_terms ?? null,
    start_date: subscription.start_date ?? null,
    original_start_date: subscription.original_start_date ?? null,
    next_renewal_date: subscription.next_renewal_date ?? null,
    end_date: subscription.end_date ?? null,
    last_modified_date: modified,
    interval_type: payload.new_pricing.interval_type,
    interval_count: payload.new_pricing.interval_count,
    churn_reason: subscription.churn_reason == null ? null : canonicalUuidOrText(subscription.churn_reason),
    custom_churn_reason: subscription.custom_churn_reason ?? null,
    version: subscription.version,
    pricing: next,
    scheduled,
  };
  return { change, record };
}
