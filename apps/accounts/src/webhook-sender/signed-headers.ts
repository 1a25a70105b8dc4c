import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` is the event's id (the same on every
 * retry and resend, so a receiver recognises a repeat), `webhook-timestamp` the wall-clock second
 * of sending (receivers compare it with their own clock against replays, so it is never a test
 * clock's time), and `webhook-signature` the maintained library's `v1,<HMAC-SHA256>` of
 * `<id>.<timestamp>.<body>`.
 */
export function signedHeaders(secret: string, eventId: string, sentAt: Date, body: string): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, sentAt, body),
  };
}
