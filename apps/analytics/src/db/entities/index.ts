import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';

/** The analytics schema so far: the audit log, outbox and inbox every service keeps. */
export const analyticsEntities = [AuditLogEntry, OutboxMessage, InboxMessage];
