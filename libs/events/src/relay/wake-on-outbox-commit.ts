import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/** The outbox entity's name (outbox-message.entity.ts). */
const OUTBOX_ENTITY = 'OutboxMessage';

/** Transactions (their EntityManagers) that inserted outbox rows past the unit of work. */
const bulkOutboxWrites = new WeakSet<EntityManager>();

/**
 * Tells the relay's wake-up that this transaction wrote outbox rows with a bulk insert, which the
 * unit of work does not see (insertOutboxRecords): it wakes the relay when the transaction commits.
 */
export function noteOutboxRowsInserted(em: EntityManager): void {
  bulkOutboxWrites.add(em);
}

/**
 * Calls `wake` right after a transaction that added outbox rows commits, so the relay publishes
 * them at once instead of at its next poll (the poll stays, for rows another process wrote). Rows
 * of the unit of work are seen in `onFlush`, before their implicit transaction commits; bulk
 * inserts are noted by noteOutboxRowsInserted; the commit event names the same EntityManager.
 */

export function wakeOnOutboxCommit(orm: MikroORM, wake: () => void): void {
  const pending = new WeakSet<EntityManager>();
  orm.em.getEventManager().registerSubscriber({
    onFlush: async ({ em, uow }) => {
      if (uow.getChangeSets().some((change) => change.type === 'create' && change.meta.className === OUTBOX_ENTITY)) {
        pending.add(em as EntityManager);
      }
    },
    afterTransactionCommit: async ({ em }) => {
      // The bulk mark is read, not taken: every relay of the ORM (a stopped one too) sees the
      // commit, and each transaction has an EntityManager of its own, forgotten with it.
      const written = pending.delete(em as EntityManager);
      if (written || bulkOutboxWrites.has(em as EntityManager)) wake();
    },
    afterTransactionRollback: async ({ em }) => {
      pending.delete(em as EntityManager);
    },
  });
}
