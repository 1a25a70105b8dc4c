import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs `fn` once the transaction `em` belongs to has committed, and never when it rolls back: for
 * work inside a transaction that someone else opens and commits (the charge consumer's, which
 * startConsumer opens with its inbox row), whose events may leave only after the commit.
 *
 * MikroORM gives each transaction's EntityManager its own copy of the event manager, so the
 * subscriber lives and dies with this transaction (a retry runs in a new one). A nested
 * transaction's savepoint also fires afterTransactionCommit, on its own EntityManager: only `em`'s
 * commit counts. `fn` must not throw: the transaction has committed whatever it does. The returned
 * promise settles once `fn` ran after the commit, or when the transaction rolled back.
 */
export function afterCommit(em: EntityManager, fn: () => Promise<void>): Promise<void> {
  let settle!: () => void;
  // Settles when `fn` has run after the commit, or at once on a rollback: registered inside the
  // transaction, so whoever sees the commit can wait for what follows it (HandOverTracker).
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  em.getEventManager().registerSubscriber({
    afterTransactionCommit: async (args) => {
      if (args.em !== em) return;
      try {
        await fn();
      } finally {
        settle();
      }
    },
    afterTransactionRollback: async (args) => {
      if (args.em === em) settle();
    },
  });
  return settled;
}
