import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** One HTTP attempt of a delivery and what the receiver answered: the delivery log. */
export const WebhookAttemptEntity = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempt',
  indexes: [{ name: 'webhook_attempt_delivery_idx', properties: ['delivery_id', 'attempted_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    delivery_id: p.uuid(),
    /** On the organization's clock. */
    attempted_at: p.datetime(),
    /** Null when no answer came (timeout, refused connection, forbidden address). */
    response_status: p.integer().nullable(),
    error: p.text(),
    duration_ms: p.integer(),
  },
});

export type WebhookAttemptRow = InferEntity<typeof WebhookAttemptEntity>;
