import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Who changed what, through which integration, for support and compliance. Rows are written in the
 * same transaction as the change they describe, so the log never claims a change that rolled back.
 * Ids are text because each service chooses its own id format.
 */
export const AuditLogEntry = defineEntity({
  name: 'AuditLogEntry',
  tableName: 'audit_log',
  indexes: [{ name: 'audit_log_organization_occurred_idx', properties: ['organizationId', 'occurredAt'] }],
  properties: {
    id: p.uuid().primary(),
    organizationId: p.text(),
    apiUserId: p.text().nullable(),
    /** X-Client-System: the integrated application that made the call. */
    clientSystem: p.text().nullable(),
    /** X-User: the person in that application, when it told us. */
    externalUser: p.text().nullable(),
    requestId: p.text().nullable(),
    action: p.text(),
    objectType: p.text(),
    objectId: p.text(),
    occurredAt: p.datetime(),
    details: p.json<Record<string, unknown>>().nullable(),
  },
});

export type IAuditLogEntry = InferEntity<typeof AuditLogEntry>;
