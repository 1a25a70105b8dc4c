import { systemClock } from '@billing/clock';
import { isAcknowledged } from '@billing/domain-kit';
import type { ClaimedDelivery, FinishedAttempt } from '../../db/webhook-delivery-store.js';
import { afterAttempt } from '../../domain/webhooks/retry-schedule.js';
import { postWebhook } from '../../webhook-sender/post-webhook.js';
import { signedHeaders } from '../../webhook-sender/signed-headers.js';
import type { WebhooksDeps } from './webhooks-deps.js';

/**
 * One attempt of a claimed delivery: POST it, and what to record (the attempt and its outcome: the
 * next retry on the organization's clock, or succeeded, or failed). The HTTP call holds no
 * transaction and no lock but the delivery's lease; the caller records a claim's attempts together.
 */
export async function attemptDelivery(deps: WebhooksDeps, delivery: ClaimedDelivery): Promise<FinishedAttempt> {
  const attemptedAt = delivery.testClockTime ?? deps.clock.now();
  const started = performance.now();
  const result = await postWebhook({
    endpoint: delivery.endpoint,
    body: delivery.payload,
    // The signature's timestamp is the wall clock's: receivers check it against theirs.
    headers: signedHeaders(delivery.secret, delivery.eventId, systemClock.now(), delivery.payload),
    basicAuth:
      delivery.basicAuthUsername === '' && delivery.basicAuthPassword === ''
        ? null
        : { username: delivery.basicAuthUsername, password: delivery.basicAuthPassword },
    timeoutMs: deps.webhooks.attemptTimeoutMs,
    forbidPrivate: deps.webhooks.forbidPrivateEndpoints,
  });
  const durationMs = Math.round(performance.now() - started);
  const acknowledged = isAcknowledged(result.responseStatus);
  const error = acknowledged || result.error !== '' ? result.error : `HTTP ${result.responseStatus}`;
  return {
    delivery,
    attempt: { attempt_date: attemptedAt, response_status: result.responseStatus, error, duration_ms: durationMs },
    outcome: afterAttempt(delivery.step, acknowledged, attemptedAt),
  };
}
