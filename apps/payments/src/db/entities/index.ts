import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';

/** The payments schema so far: the audit log, outbox and inbox every service keeps. */
export const paymentsEntities = [AuditLogEntry, OutboxMessage, InboxMessage];
