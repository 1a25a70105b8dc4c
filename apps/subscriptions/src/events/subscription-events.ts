import { encodeMessage, subscriptionEventsV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { ChargeView } from '../domain/charge-view.js';
import {
  type LifecycleEvent,
  type PendingChange,
  pricingFigures,
  type SubscriptionPricing,
  type SubscriptionStatus,
} from '../domain/lifecycle/index.js';
import type { SubscriptionView } from '../domain/subscription-view.js';
import { chargeMessage } from '../grpc/charge-mapper.js';
import { subscriptionMessage } from '../grpc/subscription-mapper.js';

/** Subjects this service publishes on (stream SUBSCRIPTIONS) besides the catalog's and contracts'. */
export const SUBSCRIPTION_EVENT_TYPES = ['subscription.changed', 'charge.created'] as const;

function pricingMessage(
  pricing: SubscriptionPricing,
  status: SubscriptionStatus,
): subscriptionEventsV1.SubscriptionPricing {
  return {
    terms: pricing.terms.uuid,
    plan: pricing.terms.plan,
    status,
    quantity: pricing.quantity,
    currency: pricing.terms.currency,
    interval_type: pricing.terms.interval.type,
    interval_count: pricing.terms.interval.count,
    ...pricingFigures(pricing),
  };
}

/**
 * subscription.changed: one per thing that happened, in order, each with the pricing before and
 * after it, and the subscription's state after the whole change (whose pricing and status are
 * `final`). `charges`: when the change leaves it expired, all its charges (for accounts' delete rule).
 */
export function publishSubscriptionChanges(
  scope: ChangeScope,
  subscription: SubscriptionView,
  events: readonly Pick<LifecycleEvent, 'change' | 'effective_at' | 'old' | 'change_type' | 'cancellation_type'>[],
  final: { pricing: SubscriptionPricing; status: SubscriptionStatus; change: PendingChange | null },
  charges: readonly string[] = [],
): void {
  const snapshot = subscriptionMessage(subscription);
  // The waiting change as committed by the whole change (the snapshot's scheduled_changes).
  const scheduled = final.change
    ? pricingMessage({ ...final.pricing, terms: final.change.terms, quantity: final.change.quantity }, final.status)
    : undefined;
  events.forEach((event, index) => {
    const after = events[index + 1]?.old ?? final;
    const payload: subscriptionEventsV1.SubscriptionChanged = {
      subscription: snapshot,
      change: event.change,
      old_pricing: event.old ? pricingMessage(event.old.pricing, event.old.status) : undefined,
      new_pricing: pricingMessage(after.pricing, after.status),
      effective_at: event.effective_at,
      change_type: event.change_type ?? '',
      cancellation_type: event.cancellation_type ?? '',
      charges: [...charges],
      scheduled_pricing: scheduled,
    };
    scope.publish({
      eventType: 'subscription.changed',
      aggregateType: 'subscription',
      aggregateId: subscription.uuid,
      payloadType: 'billing.events.v1.SubscriptionChanged',
      payload: encodeMessage(subscriptionEventsV1.SubscriptionChanged, payload),
    });
  });
}

/** charge.created: the document invoicing issues, with the invoice fields of the subscription at that moment. */
export function publishChargeCreated(scope: ChangeScope, charge: ChargeView): void {
  scope.publish({
    eventType: 'charge.created',
    aggregateType: 'subscription',
    aggregateId: charge.subscription,
    payloadType: 'billing.events.v1.ChargeCreated',
    payload: encodeMessage(subscriptionEventsV1.ChargeCreated, { charge: chargeMessage(charge) }),
  });
}
