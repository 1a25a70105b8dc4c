import { AuditLogEntry, type IAuditLogEntry } from '@billing/db';
import { insertOutboxRecords, type OutboxRecord } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A batch's audit rows and outbox rows, one multi-row INSERT each, in the caller's transaction and
 * bypassing the unit of work (the events in the given order: the relay publishes by insertion position).
 */
export async function insertAuditAndOutbox(
  em: EntityManager,
  audits: readonly IAuditLogEntry[],
  events: readonly OutboxRecord[],
): Promise<void> {
  if (audits.length > 0) await em.insertMany(AuditLogEntry, audits as IAuditLogEntry[]);
  await insertOutboxRecords(em, events);
}
