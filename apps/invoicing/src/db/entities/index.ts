import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';

/** The invoicing schema so far: the audit log, outbox and inbox every service keeps. */
export const invoicingEntities = [AuditLogEntry, OutboxMessage, InboxMessage];
