import { type EntityManager, IsolationLevel } from '@mikro-orm/postgresql';

/**
 * Runs the reads of `fn` in one read-only REPEATABLE READ transaction, so that they all see the
 * same committed state: a list's page and its count then agree even while writes commit between
 * the two queries (a count of 1 next to an empty page otherwise).
 */
export function readSnapshot<T>(em: EntityManager, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional((tx) => fn(tx), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}
