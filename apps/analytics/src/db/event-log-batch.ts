import type { EventEnvelope } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EventLogEntity } from './entities/event-log.entity.js';
import { lockOrganizationActivities } from './event-log.js';

/**
 * The activity locks of a batch's organizations, each once, in one stable (sorted) order: two
 * batches locking the same organizations wait for each other instead of deadlocking.
 */
export async function lockOrganizationsActivities(em: EntityManager, organizationIds: Iterable<string>): Promise<void> {
  for (const organizationId of [...new Set(organizationIds)].sort()) {
    await lockOrganizationActivities(em, organizationId);
  }
}

/**
 * Appends a batch's events to the journal a rebuild replays, in one statement and in the given
 * order (the journal's positions follow it), each event id once (appendToEventLog for many).
 */
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
