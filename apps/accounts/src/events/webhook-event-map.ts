import type { EventEnvelope } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import type { WebhookEventName } from '../domain/webhooks/event-names.js';
import {
  accountData,
  activityData,
  invoiceData,
  paymentAttemptData,
  paymentCardData,
  planTermsData,
  subscriptionData,
  type WebhookDataRenderer,
} from './webhook-data.js';

/** Which internal event becomes which public webhook event, and how its data is rendered. */
export interface WebhookEventMapping {
  producer: string;
  eventType: string;
  name: WebhookEventName;
  /** Only events this accepts become deliveries (e.g. only cancellations of subscription.changed). */
  when?: (envelope: EventEnvelope) => boolean;
  data: WebhookDataRenderer;
}

/** subscription.changed's `change` values that the cancel action produces. */
const CANCELLATIONS = new Set(['cancelled', 'cancellation_scheduled']);
const isCancellation = (envelope: EventEnvelope): boolean =>
  CANCELLATIONS.has(subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload).change);

/**
 * The public events made from other services' events, one line each. renew_subscription_soon is
 * made from the read model of subscriptions instead (use-cases/webhooks/renewal-notices). Not yet
 * wired (no service publishes what they announce): payment.authentication_required (the gateways
 * here never ask for it). Wiring one is a line here (and a renderer in webhook-data.ts for a new kind of object): each
 * line gets its durable consumer (webhook-consumers.ts).
 */
export const WEBHOOK_EVENT_MAP: readonly WebhookEventMapping[] = [
  { producer: 'accounts', eventType: 'account.created', name: 'account.created', data: accountData },
  { producer: 'accounts', eventType: 'account.updated', name: 'account.updated', data: accountData },
  { producer: 'subscriptions', eventType: 'plan_terms.created', name: 'plan_terms.created', data: planTermsData },
  { producer: 'subscriptions', eventType: 'plan_terms.updated', name: 'plan_terms.updated', data: planTermsData },
  {
    producer: 'subscriptions',
    eventType: 'subscription.changed',
    name: 'cancel_subscription',
    when: isCancellation,
    data: subscriptionData,
  },
  { producer: 'invoicing', eventType: 'invoice.issued', name: 'new_invoice', data: invoiceData },
  { producer: 'invoicing', eventType: 'invoice.paid', name: 'paid_invoice', data: invoiceData },
  { producer: 'analytics', eventType: 'activity.created', name: 'new_activity', data: activityData },
  { producer: 'payments', eventType: 'payment.declined', name: 'payment.declined', data: paymentAttemptData },
  {
    producer: 'payments',
    eventType: 'payment_card.activated',
    name: 'payment_card.activated',
    data: paymentCardData,
  },
  {
    producer: 'payments',
    eventType: 'payment_card.deactivated',
    name: 'payment_card.deactivated',
    data: paymentCardData,
  },
  {
    producer: 'payments',
    eventType: 'payment_card.expires_this_month',
    name: 'card_expires_this_month',
    data: paymentCardData,
  },
];

/** An event type becomes at most one public event: a delivery is keyed by (webhook, event id). */
const BY_EVENT_TYPE = new Map(WEBHOOK_EVENT_MAP.map((mapping) => [mapping.eventType, mapping]));
if (BY_EVENT_TYPE.size !== WEBHOOK_EVENT_MAP.length) throw new Error('an event type is mapped twice');

/** The mapping of an event when it becomes a public webhook event, else null. */
export function webhookMappingOf(envelope: EventEnvelope): WebhookEventMapping | null {
  const mapping = webhookMappingOfType(envelope);
  if (!mapping || (mapping.when && !mapping.when(envelope))) return null;
  return mapping;
}

/** The mapping of the event's type, before its `when` (which may decode the payload) is asked. */
export function webhookMappingOfType(envelope: EventEnvelope): WebhookEventMapping | null {
  return BY_EVENT_TYPE.get(envelope.event_type) ?? null;
}
