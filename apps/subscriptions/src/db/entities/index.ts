import { AuditLogEntry } from '@billing/db';
import { InboxMessage, OutboxMessage } from '@billing/events';

/** The subscriptions schema so far: the audit log, outbox and inbox every service keeps. */
export const subscriptionsEntities = [AuditLogEntry, OutboxMessage, InboxMessage];
