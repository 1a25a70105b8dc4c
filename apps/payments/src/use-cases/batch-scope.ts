import { auditEntryRow, type IAuditLogEntry } from '@billing/db';
import { type OutboxRecord, outboxRecord } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { type ChangeScope, changeScope } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insertAuditAndOutbox } from '../db/batch-records.js';

const PRODUCER = 'payments';

/**
 * The audit rows and events of a batch of changes (many invoices' outcomes in one transaction),
 * collected from their scopes and written with one statement each (write) instead of one unit of
 * work entity per row.
 */
export class BatchRecords {
  private audits: IAuditLogEntry[] = [];
  private events: OutboxRecord[] = [];

  /** changeScope whose audit rows and events are collected here. */
  scope(em: EntityManager, organizationId: string, context: RequestContext, now: Date): ChangeScope {
    const scope: ChangeScope = {
      ...changeScope(em, PRODUCER, organizationId, context, now),
      audit: (action, objectType, objectId, details = {}) => {
        this.audits.push(
          auditEntryRow({
            organizationId,
            apiUserId: context.apiUserId ?? null,
            clientSystem: context.clientSystem ?? null,
            externalUser: context.externalUser ?? null,
            requestId: context.requestId,
            action,
            objectType,
            objectId,
            occurredAt: now,
            details,
          }),
        );
      },
      publish: (event) => {
        const { record } = outboxRecord({
          producer: PRODUCER,
          organizationId,
          requestId: context.requestId,
          occurredAt: now,
          ...event,
        });
        this.events.push(record);
      },
      notBefore: (moment) =>
        moment.getTime() > now.getTime() ? this.scope(em, organizationId, context, moment) : scope,
    };
    return scope;
  }

  async write(em: EntityManager): Promise<void> {
    const audits = this.audits;
    const events = this.events;
    this.audits = [];
    this.events = [];
    await insertAuditAndOutbox(em, audits, events);
  }
}
