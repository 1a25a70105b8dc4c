import type { EventEnvelope } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EventLogEntity, type EventLogRow } from './entities/event-log.entity.js';

/**
 * Serializes the changes of one organization's activities: the consumers' transactions and a
 * rebuild take it first, so a rebuild never runs beside an event of the same organization.
 */
export async function lockOrganizationActivities(em: EntityManager, organizationId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`analytics.activities:${organizationId}`]);
}

/**
 * lockOrganizationActivities for the organizations of a batch of events, each once, in one order
 * (sorted) so that two batches naming the same organizations cannot wait for each other.
 */
export async function lockOrganizationsActivities(em: EntityManager, organizationIds: readonly string[]) {
  for (const organizationId of [...new Set(organizationIds)].sort())
    await lockOrganizationActivities(em, organizationId);
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
