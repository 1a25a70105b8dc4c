/**
 * When an e-invoice the access point did not accept is tried again: after 1 min, 5 min, 30 min,
 * 2 h, 12 h and 24 h, each counted from the failed attempt, on the organization's clock (the
 * schedule of webhook deliveries, gaps.md §12); after the last, the delivery has failed.
 */
export const EINVOICE_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
] as const;

/** How long the access point has to answer before the attempt counts as failed. */
export const EINVOICE_ATTEMPT_TIMEOUT_MS = 10_000;

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
  if (responseStatus !== null && responseStatus >= 200 && responseStatus < 300)
    return { status: 'delivered', step, nextAttemptAt: null };
  const delay = EINVOICE_RETRY_DELAYS_MS[step];
  if (delay === undefined) return { status: 'failed', step: step + 1, nextAttemptAt: null };
  return { status: 'pending', step: step + 1, nextAttemptAt: new Date(attemptedAt.getTime() + delay) };
}
