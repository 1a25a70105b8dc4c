/** Rate limits count requests in fixed one-minute windows aligned to the minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitHit {
  /** Whose requests are counted (the API user id). */
  key: string;
  /** Requests allowed per window. */
  limit: number;
  /** The moment of the request, from the gateway's clock. */
  now: Date;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one (0 once the limit is reached). */
  remaining: number;
  /** When the window ends and the count starts again. */
  resetAt: Date;
  /** Whole seconds until `resetAt`, at least 1 (for `Retry-After`). */
  retryAfterSeconds: number;
}

/** Counts one request and says whether it is within the limit. */
export interface RateLimiter {
  hit(request: RateLimitHit): Promise<RateLimitDecision>;
}

export function windowStartOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS);
}

/** The decision for the `count`-th request of the window that contains `now`. */
export function decide(count: number, limit: number, now: Date): RateLimitDecision {
  const resetAt = new Date(windowStartOf(now).getTime() + RATE_LIMIT_WINDOW_MS);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}
