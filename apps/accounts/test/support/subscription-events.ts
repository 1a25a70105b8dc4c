import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';

export interface SubscriptionEventInput {
  organizationId: string;
  subscription: string;
  account: string;
  status: string;
  collectionMethod?: string;
  lastModified: string;
  /** Subscription.version: 1 on creation, +1 per committed change; what orders the states. */
  version: number;
  /** Subscription.created_date (default 2026-01-15T09:00:00Z). */
  created?: string;
  /** Subscription.churn_reason (unset by default). */
  churnReason?: string;
  /** Subscription.payment_terms (unset by default: the account's or organization's apply). */
  paymentTerms?: number;
  /** The `change` field: what the subscriptions service did. */
  change?: string;
  /** SubscriptionChanged.charges: set by the producer when the change leaves it expired. */
  charges?: string[];
  eventId?: string;
}

/**
 * A `subscriptions.subscription.changed` envelope as the subscriptions service's outbox writes it:
 * the subscription's full state after the change (fields this model ignores included, so a test
 * would notice a decoder that chokes on them).
 */
export function subscriptionChanged(input: SubscriptionEventInput): EventEnvelope {
  const lastModified = new Date(input.lastModified);
  const payload = subscriptionEventsV1.SubscriptionChanged.encode(
    subscriptionEventsV1.SubscriptionChanged.fromPartial({
      subscription: {
        uuid: input.subscription,
        account: input.account,
        start_date: new Date('2026-01-15T00:00:00Z'),
        created_date: new Date(input.created ?? '2026-01-15T09:00:00Z'),
        last_modified_date: lastModified,
        next_renewal_date: new Date('2026-02-15T00:00:00Z'),
        quantity: 2,
        collection_method: input.collectionMethod ?? 'invoice',
        is_auto_renew_enabled: true,
        status: input.status,
        current_mrr: '200.00',
        committed_mrr: '200.00',
        final_price: '200.00',
        version: input.version,
        ...(input.churnReason !== undefined ? { churn_reason: input.churnReason } : {}),
        ...(input.paymentTerms !== undefined ? { payment_terms: input.paymentTerms } : {}),
        ...(input.status === 'not_renewing'
          ? { cancellation_type: 'at_renewal', cancel_at: new Date('2026-02-15T00:00:00Z') }
          : {}),
      },
      change: input.change ?? 'updated',
      effective_at: lastModified,
      charges: input.charges ?? [],
    }),
  ).finish();
  return {
    event_id: input.eventId ?? randomUUID(),
    event_type: 'subscription.changed',
    schema_version: 1,
    organization_id: input.organizationId,
    occurred_at: lastModified,
    request_id: randomUUID(),
    aggregate_type: 'subscription',
    aggregate_id: input.subscription,
    payload_type: 'billing.events.v1.SubscriptionChanged',
    payload: Buffer.from(payload),
  };
}
