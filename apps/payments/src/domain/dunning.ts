/**
 * gaps.md §11: a declined card payment is tried again on the organization's dunning schedule (days
 * after the first attempt; default 1, 3 and 7), then left open. Days are whole days of 24 hours
 * after the first attempt on the organization's clock, so a test clock moved by a day makes the
 * first retry due.
 */

export const DEFAULT_DUNNING_DAYS: readonly number[] = [1, 3, 7];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the attempt after `attemptsMade` declined attempts falls due, or null when the schedule
 * has no more retries (the invoice is then left open).
 */
export function nextAttemptAt(firstAttemptAt: Date, attemptsMade: number, schedule: readonly number[]): Date | null {
  const day = schedule[attemptsMade - 1];
  if (day === undefined) return null;
  return new Date(firstAttemptAt.getTime() + day * DAY_MS);
}

/** How many attempts an invoice gets in all: the first and one per day of the schedule. */
export function attemptsAllowed(schedule: readonly number[]): number {
  return 1 + schedule.length;
}
