import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditLogEntry, type IAuditLogEntry } from './audit-log-entry.entity.js';

export interface AuditEntryInput {
  organizationId: string;
  action: string;
  objectType: string;
  objectId: string;
  occurredAt: Date;
  apiUserId?: string | null;
  clientSystem?: string | null;
  externalUser?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown> | null;
}

/** Adds an audit row to the caller's unit of work; it is written when that transaction commits. */
export function recordAudit(em: EntityManager, entry: AuditEntryInput): IAuditLogEntry {
  return em.create(AuditLogEntry, auditEntryRow(entry));
}

/** The audit row of an entry as a plain object, for writers that insert many rows in one statement. */
export function auditEntryRow(entry: AuditEntryInput): IAuditLogEntry {
  return {
    id: randomUUID(),
    organizationId: entry.organizationId,
    apiUserId: entry.apiUserId ?? null,
    clientSystem: entry.clientSystem ?? null,
    externalUser: entry.externalUser ?? null,
    requestId: entry.requestId ?? null,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    occurredAt: entry.occurredAt,
    details: entry.details ?? null,
  };
}

/** Inserts audit rows (auditEntryRow) with one statement, in the caller's transaction, past the unit of work. */
export async function insertAuditEntries(em: EntityManager, rows: readonly IAuditLogEntry[]): Promise<void> {
  if (rows.length > 0) await em.insertMany(AuditLogEntry, rows as IAuditLogEntry[]);
}
