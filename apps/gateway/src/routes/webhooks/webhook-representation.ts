import type { webhooksV1 } from '@billing/proto';
import { nullable, tagged } from '../shared/representation.js';

const iso = (instant: Date | undefined): string => instant?.toISOString() ?? '';

/** The webhook; never its password or secret. */
export function presentWebhook(webhook: webhooksV1.Webhook) {
  return tagged('webhook', {
    uuid: webhook.uuid,
    endpoint: webhook.endpoint,
    basic_auth_username: webhook.basic_auth_username,
    enabled: webhook.enabled,
    events: webhook.events,
    created_date: iso(webhook.created_date),
    last_modified_date: iso(webhook.last_modified_date),
  });
}

function presentAttempt(attempt: webhooksV1.WebhookAttempt) {
  return tagged('webhook_attempt', {
    attempt_date: iso(attempt.attempt_date),
    response_status: nullable(attempt.response_status),
    error: attempt.error,
    duration_ms: attempt.duration_ms,
  });
}

/** A delivery of the log, with the body it sends (as JSON) and its attempts, oldest first. */
export function presentDelivery(delivery: webhooksV1.WebhookDelivery) {
  return tagged('webhook_delivery', {
    uuid: delivery.uuid,
    webhook: delivery.webhook,
    event: delivery.event,
    event_id: delivery.event_id,
    status: delivery.status as 'pending' | 'succeeded' | 'failed',
    next_attempt_date: delivery.next_attempt_date?.toISOString() ?? null,
    created_date: iso(delivery.created_date),
    payload: JSON.parse(delivery.payload) as { event: string; data: unknown },
    attempts: delivery.attempts.map(presentAttempt),
  });
}
