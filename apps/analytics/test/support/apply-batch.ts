import { inTransaction } from '@billing/db';
import type { EventEnvelope } from '@billing/events';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/**
 * Applies events as one batch of a batched consumer (startConsumer's `handleBatch` path), with
 * the batch made up by the test instead of by arrival: in one transaction, the inbox rows of the
 * batch (each event id once), then the handler with the events not handled before, in order.
 */
export function applyBatch(
  orm: MikroORM,
  consumer: string,
  envelopes: readonly EventEnvelope[],
  handleBatch: (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>,
): Promise<void> {
  return inTransaction(orm, async (em) => {
    const fresh: EventEnvelope[] = [];
    for (const envelope of envelopes) {
      const inserted = await em.execute<Array<{ message_id: string }>>(
        `insert into inbox (consumer, message_id, processed_at) values (?, ?, now())
         on conflict (consumer, message_id) do nothing returning message_id`,
        [consumer, envelope.event_id],
      );
      if (inserted.length > 0) fresh.push(envelope);
    }
    if (fresh.length > 0) await handleBatch(em, fresh);
  });
}
