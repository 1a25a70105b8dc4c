import { createHash } from 'node:crypto';

/**
 * renew_subscription_soon is due this long before a renewal (gaps.md §12: 7 days), and only while
 * the renewal is still ahead: a renewal that an advance of a test clock passes together with its
 * notice's moment has happened already and gets none.
 */
export const RENEWAL_NOTICE_MS = 7 * 86_400_000;

/** The status of subscriptions that renew (not_renewing ones expire instead; scheduled ones start). */
export const RENEWING_STATUS = 'active';

/**
 * The notice's event id, the same whoever computes it and however often: a UUID (version 5 form)
 * of the subscription and its renewal, so each renewal gets one notice per webhook (the deliveries'
 * (webhook, event) key) and receivers see one `webhook-id` for it.
 */
export function renewalNoticeId(subscriptionId: string, renewalAt: Date): string {
  const hash = createHash('sha1').update(`renew_subscription_soon:${subscriptionId}:${renewalAt.toISOString()}`);
  const bytes = hash.digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
