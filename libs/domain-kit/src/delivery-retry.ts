/**
 * The retry schedule of deliveries to a party that must acknowledge them (gaps.md §12: webhook
 * deliveries; e-invoices to the access point follow the same): after 1 min, 5 min, 30 min, 2 h,
 * 12 h and 24 h, each counted from the failed attempt, on the organization's clock; after the
 * last, the delivery has failed.
 */
export const DELIVERY_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
] as const;

/** How long the receiving party has to answer before the attempt counts as failed. */
export const DELIVERY_ATTEMPT_TIMEOUT_MS = 10_000;

export type RetryAfterFailure =
  | { status: 'pending'; step: number; nextAttemptAt: Date }
  | { status: 'failed'; step: number; nextAttemptAt: null };

/**
 * After a failed attempt at `attemptedAt`, `step` failed attempts before it: the next retry, or
 * failed for good once the schedule is used up. `step` of the result counts this failure too.
 */
export function retryAfterFailure(step: number, attemptedAt: Date): RetryAfterFailure {
  const delay = DELIVERY_RETRY_DELAYS_MS[step];
  if (delay === undefined) return { status: 'failed', step: step + 1, nextAttemptAt: null };
  return { status: 'pending', step: step + 1, nextAttemptAt: new Date(attemptedAt.getTime() + delay) };
}

/** Any 2xx acknowledges; everything else, and no answer at all, asks for a retry. */
export const isAcknowledged = (responseStatus: number | null): boolean =>
  responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
