import type { Decimal } from '@billing/money';

/** A moment from which something (a subscription, an account) has an MRR, in the base currency. */
export interface MrrPoint {
  date: Date;
  mrr: Decimal;
}

/** The point in force at `moment` (the last one at or before it), or null. */
export function pointAt<P extends MrrPoint>(points: readonly P[], moment: Date): P | null {
  let found: P | null = null;
  for (const point of points) {
    if (point.date.getTime() > moment.getTime()) break;
    found = point;
  }
  return found;
}

/**
 * gaps.md §8 mrr-per-month, for one subscription's points (in time order) and the month
 * [start, next): null when it had no MRR at any moment of the month; else the point at the month's
 * last moment when it has MRR then (active), or else its last point with MRR (not active).
 */
export function monthPoint<P extends MrrPoint>(
  points: readonly P[],
  start: Date,
  next: Date,
): { point: P; active: boolean } | null {
  const lastMoment = new Date(next.getTime() - 1);
  const atEnd = pointAt(points, lastMoment);
  if (atEnd?.mrr.greaterThan(0)) return { point: atEnd, active: true };
  const atStart = pointAt(points, start);
  const within = points.filter((p) => p.date.getTime() > start.getTime() && p.date.getTime() <= lastMoment.getTime());
  const hadMrr = (atStart?.mrr.greaterThan(0) ?? false) || within.some((p) => p.mrr.greaterThan(0));
  if (!hadMrr) return null;
  const candidates = [...(atStart ? [atStart] : []), ...within].filter((p) => p.mrr.greaterThan(0));
  const last = candidates[candidates.length - 1];
  return last ? { point: last, active: false } : null;
}
