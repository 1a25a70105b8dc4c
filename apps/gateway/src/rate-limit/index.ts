export { InMemoryRateLimiter } from './in-memory-rate-limiter.js';
export { type CleanupSchedule, PostgresRateLimiter, type PostgresRateLimiterOptions } from './postgres-rate-limiter.js';
export {
  decide,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitHit,
  windowStartOf,
} from './rate-limiter.js';
