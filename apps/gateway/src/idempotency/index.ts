export {
  canonicalJson,
  checkIdempotencyKey,
  decideClaim,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_RETENTION_MS,
  isReplayableStatus,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  RUNNING_CLAIM_LEASE_MS,
  requestFingerprint,
} from './idempotency-rules.js';
export type { ClaimResult, IdempotencyClaim, IdempotencyStore } from './idempotency-store.js';
export {
  type IdempotencyCleanupSchedule,
  PostgresIdempotencyStore,
  type PostgresIdempotencyStoreOptions,
} from './postgres-idempotency-store.js';
