import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One event for one webhook: created once per (webhook, event) by the event consumers (the unique
 * key makes a second arrival of the event a no-op), attempted until acknowledged or failed.
 */
export const WebhookDeliveryEntity = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  uniques: [{ name: 'webhook_delivery_webhook_event_unique', properties: ['webhook_id', 'event_id'] }],
  indexes: [
    { name: 'webhook_delivery_webhook_created_idx', properties: ['webhook_id', 'created_at'] },
    { name: 'webhook_delivery_due_idx', properties: ['status', 'next_attempt_at'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    webhook_id: p.uuid(),
    /** The public event name. */
    event_name: p.string().length(64),
    /** The producing service's event id: the webhook-id header. */
    event_id: p.uuid(),
    /** The exact body sent, JSON text, fixed at creation. */
    payload: p.text(),
    /** pending, succeeded, failed. */
    status: p.string().length(16),
    /** Failed attempts of the current schedule (domain/webhooks/retry-schedule). */
    step: p.integer(),
    /** On the organization's clock; null once succeeded or failed. */
    next_attempt_at: p.datetime().nullable(),
    /** A dispatcher attempting it holds it until then (service clock), so no other takes it. */
    lease_until: p.datetime().nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type WebhookDeliveryRow = InferEntity<typeof WebhookDeliveryEntity>;
