import { byteSlices, executeBound, pgArray } from '@billing/db';
import { canonicalUuidOrText } from '@billing/domain-kit';
import type { EventEnvelope } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EventLogEntity, type EventLogRow } from './entities/event-log.entity.js';

/**
 * Serializes the changes of one organization's activities: the consumers' transactions and a
 * rebuild take it first, so a rebuild never runs beside an event of the same organization.
 */
export async function lockOrganizationActivities(em: EntityManager, organizationId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [lockKey(organizationId)]);
}

/** By the id in Postgres' form: an event naming its organization in capitals takes the same lock. */
const lockKey = (organizationId: string) => `analytics.activities:${canonicalUuidOrText(organizationId)}`;

/**
 * lockOrganizationActivities of each of the events' organizations, then appendManyToEventLog of
 * the events, with one statement: the rows to journal are joined to the locks' one-row aggregate,
 * so every lock is held before the first row is inserted. The locks are taken in one order (the
 * sorted subquery feeds them), so two batches naming the same organizations cannot wait for each
 * other; the rows go in in the given order, each event id once.
 */
export async function lockAndJournal(em: EntityManager, envelopes: readonly EventEnvelope[]): Promise<void> {
  if (envelopes.length === 0) return;
  const keys = [...new Set(envelopes.map((envelope) => lockKey(envelope.organization_id)))].sort();
  const payloads = byteSlices(envelopes.map((envelope) => envelope.payload));
  // Bound (executeBound), nine values whatever the batch: an array per column and the payloads as
  // one run of bytes each row takes its slice of, so Postgres parses and plans the same short
  // statement for any batch (a VALUES list of six values an event cost it more than the insert).
  await executeBound(
    em,
    `insert into event_log (event_id, organization_id, event_type, payload_type, occurred_at, payload)
     select e.event_id, e.organization_id, e.event_type, e.payload_type, e.occurred_at,
            substring(?::bytea from e.start for e.length)
       from (select count(pg_advisory_xact_lock(hashtextextended(k, 0))) as taken
               from (select k from unnest(?::text[]) as keys(k) order by k offset 0) as sorted
            ) as locks
      cross join unnest(?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::int[])
            with ordinality as e(event_id, organization_id, event_type, payload_type, occurred_at, start, length, n)
      order by e.n
     on conflict (event_id) do nothing`,
    [
      payloads.bytes,
      pgArray(keys),
      pgArray(envelopes.map((envelope) => envelope.event_id)),
      pgArray(envelopes.map((envelope) => envelope.organization_id)),
      pgArray(envelopes.map((envelope) => envelope.event_type)),
      pgArray(envelopes.map((envelope) => envelope.payload_type)),
      pgArray(envelopes.map((envelope) => envelope.occurred_at ?? new Date(0))),
      payloads.starts,
      payloads.lengths,
    ],
    { prepared: true },
  );
}

/** Appends the event to the journal a rebuild replays (once per event id). */
export function appendToEventLog(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  return appendManyToEventLog(em, [envelope]);
}

/** Appends the events to the journal, in the given order, with one statement (each event id once). */
export async function appendManyToEventLog(em: EntityManager, envelopes: readonly EventEnvelope[]): Promise<void> {
  if (envelopes.length === 0) return;
  await em
    .createQueryBuilder(EventLogEntity)
    .insert(
      envelopes.map((envelope) => ({
        event_id: envelope.event_id,
        organization_id: envelope.organization_id,
        event_type: envelope.event_type,
        payload_type: envelope.payload_type,
        occurred_at: envelope.occurred_at ?? new Date(0),
        payload: Buffer.from(envelope.payload),
      })),
    )
    .onConflict(['event_id'])
    .ignore()
    .execute('run');
}

/** The organization's journal, in the order the events were applied. */
export function organizationEventLog(em: EntityManager, organizationId: string): Promise<EventLogRow[]> {
  return em.find(EventLogEntity, { organization_id: organizationId }, { orderBy: { position: 'asc' } });
}
