import { decide, type RateLimitDecision, type RateLimiter, type RateLimitHit, windowStartOf } from './rate-limiter.js';

/**
 * The same fixed-window counting as the Postgres store, inside one process. Right for a single
 * gateway (local runs, tests of routes); with several replicas use PostgresRateLimiter, or each
 * replica would grant the full limit.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, { windowStart: number; count: number }>();

  async hit({ key, limit, now }: RateLimitHit): Promise<RateLimitDecision> {
    const windowStart = windowStartOf(now).getTime();
    const current = this.counts.get(key);
    const count = current && current.windowStart === windowStart ? current.count + 1 : 1;
    // Re-inserting keeps the map ordered by last use, and old windows are dropped as keys recur.
    this.counts.delete(key);
    this.counts.set(key, { windowStart, count });
    this.forgetWindowsBefore(windowStart);
    return decide(count, limit, now);
  }

  private forgetWindowsBefore(windowStart: number): void {
    for (const [key, entry] of this.counts) {
      if (entry.windowStart >= windowStart) break;
      this.counts.delete(key);
    }
  }
}
