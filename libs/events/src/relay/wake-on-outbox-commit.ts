import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/**
 * Calls `wake` right after a transaction that added outbox rows through the unit of work commits,
 * so the relay publishes them at once instead of at its next poll (the poll stays, for rows
 * written otherwise: bulk inserts, another process). Flushes are seen in `onFlush`, before their
 * implicit transaction commits; the commit event names the same EntityManager.
 */
/** The outbox entity's name (outbox-message.entity.ts). */
const OUTBOX_ENTITY = 'OutboxMessage';

export function wakeOnOutboxCommit(orm: MikroORM, wake: () => void): void {
  const pending = new WeakSet<EntityManager>();
  orm.em.getEventManager().registerSubscriber({
    onFlush: async ({ em, uow }) => {
      if (uow.getChangeSets().some((change) => change.type === 'create' && change.meta.className === OUTBOX_ENTITY)) {
        pending.add(em as EntityManager);
      }
    },
    afterTransactionCommit: async ({ em }) => {
      if (pending.delete(em as EntityManager)) wake();
    },
    afterTransactionRollback: async ({ em }) => {
      pending.delete(em as EntityManager);
    },
  });
}
