import { retryAfterFailure } from '@billing/domain-kit';

// A delivery that was not acknowledged is tried again on the schedule of gaps.md §12
// (@billing/domain-kit delivery-retry), on the organization's clock.

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
  return retryAfterFailure(step, attemptedAt);
}
