/**
 * When a delivery that was not acknowledged is tried again (gaps.md §12): after 1 min, 5 min,
 * 30 min, 2 h, 12 h and 24 h, each counted from the failed attempt, on the organization's clock.
 */
export const RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
] as const;

/** How long a receiver has to answer before the attempt counts as failed. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export type AttemptOutcome =
  | { status: 'succeeded'; step: number; nextAttemptAt: null }
  | { status: 'pending'; step: number; nextAttemptAt: Date }
  | { status: 'failed'; step: number; nextAttemptAt: null };

/**
 * What an attempt at `attemptedAt` leaves: acknowledged, or the next retry, or failed for good.
 * `step` counts the failed attempts of the current schedule (0 for a new or resent delivery).
 */
export function afterAttempt(step: number, acknowledged: boolean, attemptedAt: Date): AttemptOutcome {
  if (acknowledged) return { status: 'succeeded', step, nextAttemptAt: null };
  const delay = RETRY_DELAYS_MS[step];
  if (delay === undefined) return { status: 'failed', step: step + 1, nextAttemptAt: null };
  return { status: 'pending', step: step + 1, nextAttemptAt: new Date(attemptedAt.getTime() + delay) };
}

/** Any 2xx acknowledges; everything else, and no answer at all, asks for a retry. */
export const isAcknowledged = (responseStatus: number | null): boolean =>
  responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
