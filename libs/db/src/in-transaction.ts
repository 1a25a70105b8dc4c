import { isAppError } from '@billing/errors';
import type { EntityManager, IsolationLevel, MikroORM } from '@mikro-orm/postgresql';
import { CONFLICT_RETRY, mapDbError } from './map-db-error.js';

export interface InTransactionOptions {
  /** Total attempts when the transaction loses a serialization race or deadlock (default 3). */
  maxAttempts?: number;
  isolationLevel?: IsolationLevel | `${IsolationLevel}`;
}

/**
 * Runs `fn` in one database transaction on a fresh EntityManager (so no identity map leaks between
 * requests), flushes and commits. Database errors come out as AppErrors (see mapDbError); a
 * serialization failure or deadlock re-runs `fn` from scratch on a new EntityManager, a bounded
 * number of times, because only a retry of the whole unit of work is correct.
 */
export async function inTransaction<T>(
  orm: MikroORM,
  fn: (em: EntityManager) => Promise<T>,
  { maxAttempts = 3, isolationLevel }: InTransactionOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const em = orm.em.fork();
    try {
      return await em.transactional((tx) => fn(tx), isolationLevel ? { isolationLevel } : {});
    } catch (error) {
      const mapped = mapDbError(error);
      if (attempt >= maxAttempts || !isConflict(mapped)) throw mapped;
      await backoff(attempt);
    }
  }
}

function isConflict(error: unknown): boolean {
  return isAppError(error) && error.reason === CONFLICT_RETRY;
}

/** A short jittered pause so the transactions that collided do not collide again in lockstep. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * 20 * 2 ** attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}
