import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBound } from '../bound-statement.js';
import { pgArray } from '../pg-array.js';
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

/**
 * Inserts audit rows (auditEntryRow) with one statement, in the caller's transaction, past the unit
 * of work: an array per column (unnest), so Postgres parses and plans the same short statement for
 * one row or a batch's thousand, where a VALUES list of eleven values a row cost it more than the
 * insert (the outbox's finding, README "Twenty-fifth session").
 */
export async function insertAuditEntries(em: EntityManager, rows: readonly IAuditLogEntry[]): Promise<void> {
  if (rows.length === 0) return;
  const schema = em.config.get('schema');
  const column = (pick: (row: IAuditLogEntry) => string | Date | null) => pgArray(rows.map(pick));
  await executeBound(
    em,
    `insert into ${schema ? `"${schema}".` : ''}"audit_log"
       (id, organization_id, api_user_id, client_system, external_user, request_id, action, object_type,
        object_id, occurred_at, details)
     select * from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                          ?::text[], ?::timestamptz[], ?::jsonb[])`,
    [
      column((row) => row.id),
      column((row) => row.organizationId),
      column((row) => row.apiUserId ?? null),
      column((row) => row.clientSystem ?? null),
      column((row) => row.externalUser ?? null),
      column((row) => row.requestId ?? null),
      column((row) => row.action),
      column((row) => row.objectType),
      column((row) => row.objectId),
      column((row) => row.occurredAt),
      column((row) => (row.details == null ? null : JSON.stringify(row.details))),
    ],
    { prepared: true },
  );
}
