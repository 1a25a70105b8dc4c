import type { Write } from '@billing/domain-kit';
import type { webhooksV1 } from '@billing/proto';
import type { DeliveryView } from '../domain/webhooks/delivery-view.js';
import type { WebhookFields, WebhookView } from '../domain/webhooks/webhook-fields.js';

/** A REST write: the present field names plus the message; present but unset is null. */
export function webhookWrite(
  input: webhooksV1.WebhookInput | undefined,
  presentFields: string[],
): Write<WebhookFields> {
  const message = (input ?? {}) as unknown as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = message[field] ?? null;
  return { values: values as Write<WebhookFields>['values'], present: new Set(presentFields) };
}

export function webhookMessage(view: WebhookView): webhooksV1.Webhook {
  return { ...view, events: [...view.events] };
}

export function deliveryMessage(view: DeliveryView): webhooksV1.WebhookDelivery {
  return {
    uuid: view.uuid,
    webhook: view.webhook,
    event: view.event,
    event_id: view.event_id,
    status: view.status,
    ...(view.next_attempt_date ? { next_attempt_date: view.next_attempt_date } : {}),
    created_date: view.created_date,
    payload: view.payload,
    attempts: view.attempts.map((attempt) => ({
      attempt_date: attempt.attempt_date,
      ...(attempt.response_status === null ? {} : { response_status: attempt.response_status }),
      error: attempt.error,
      duration_ms: attempt.duration_ms,
    })),
  };
}
