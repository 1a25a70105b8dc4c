import { isAcknowledged, retryAfterFailure } from '@billing/domain-kit';

/**
 * An e-invoice the access point did not accept is tried again on the schedule of webhook
 * deliveries (gaps.md §12, @billing/domain-kit delivery-retry): 1 min, 5 min, 30 min, 2 h, 12 h and
 * 24 h after each failed attempt, on the organization's clock; after the last, it has failed.
 */

/** `einvoice_status` of an invoice that is an e-invoice. */
export type EinvoiceStatus = 'pending' | 'delivered' | 'failed';

export type DeliveryOutcome =
  | { status: 'delivered'; step: number; nextAttemptAt: null }
  | { status: 'pending'; step: number; nextAttemptAt: Date }
  | { status: 'failed'; step: number; nextAttemptAt: null };

/**
 * What an attempt at `attemptedAt` leaves: accepted (any 2xx), the next retry, or failed for good.
 * `step` counts the failed attempts so far.
 */
export function afterDeliveryAttempt(step: number, responseStatus: number | null, attemptedAt: Date): DeliveryOutcome {
  if (isAcknowledged(responseStatus)) return { status: 'delivered', step, nextAttemptAt: null };
  return retryAfterFailure(step, attemptedAt);
}
