/**
 * The subscription notices consumer acknowledges at once the subscription.changed events that give
 * no notice, most of them (renewals, edits) decided from two fields of the payload without
 * decoding the rest: always the same answer as the notice the handler would make (noticeOfEvent).
 */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { givesNoNotice, noticeOfEvent } from '../src/events/subscription-notices.js';

const effectiveAt = new Date('2026-12-01T00:00:00.000Z');
const pricing = subscriptionEventsV1.SubscriptionPricing.fromPartial({
  currency: 'DKK',
  quantity: 2,
  unit_price: '100.00',
  interval_type: 'month',
  interval_count: 1,
});

function changed(fields: Partial<subscriptionEventsV1.SubscriptionChanged>): EventEnvelope {
  const payload = subscriptionEventsV1.SubscriptionChanged.encode(
    subscriptionEventsV1.SubscriptionChanged.fromPartial({
      subscription: { uuid: randomUUID(), account: randomUUID(), plan: { name: 'Pro' } },
      new_pricing: pricing,
      effective_at: effectiveAt,
      ...fields,
    }),
  ).finish();
  return {
    event_id: randomUUID(),
    event_type: 'subscription.changed',
    schema_version: 1,
    organization_id: randomUUID(),
    occurred_at: effectiveAt,
    request_id: randomUUID(),
    aggregate_type: 'subscription',
    aggregate_id: randomUUID(),
    payload_type: 'billing.events.v1.SubscriptionChanged',
    payload: Buffer.from(payload),
  };
}

describe('givesNoNotice', () => {
  it('acknowledges renewals, edits and changes at renewal, which give no notice', () => {
    for (const event of [
      changed({ change: 'renewed' }),
      changed({ change: 'updated' }),
      changed({ change: 'changed', change_type: 'at_renewal' }),
      changed({ change: 'expired' }),
    ]) {
      expect(noticeOfEvent(event)).toBeNull();
      expect(givesNoNotice(event)).toBe(true);
    }
  });

  it('hands the changes that give a notice to the handler', () => {
    for (const event of [
      changed({ change: 'activated' }),
      changed({ change: 'changed', change_type: 'immediate', old_pricing: pricing }),
      changed({ change: 'cancellation_scheduled' }),
      changed({ change: 'reactivated' }),
    ]) {
      expect(noticeOfEvent(event)).not.toBeNull();
      expect(givesNoNotice(event)).toBe(false);
    }
  });

  it('decodes the rest when the change names a notice: one without its pricing gives none', () => {
    const event = changed({ change: 'activated', new_pricing: undefined });
    expect(noticeOfEvent(event)).toBeNull();
    expect(givesNoNotice(event)).toBe(true);
  });
});
