import { auditEntryRow, type IAuditLogEntry, insertAuditEntries } from '@billing/db';
import { type EventEnvelope, insertOutboxRecords, type OutboxRecord, outboxRecord } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ChangeScope, changeScope } from './run-change.js';

export interface CollectedChangeRecordsOptions {
  /** Where the envelopes of the collected events go too (for a hand-over once the batch committed). */
  published?: EventEnvelope[];
  /** Leave the audit rows to the unit of work (changeScope's own audit) instead of collecting them. */
  auditsByUnitOfWork?: boolean;
}

/**
 * The audit rows and events of a batch of changes made in one transaction (a scheduler's or a
 * consumer's batch), collected from their scopes instead of one unit-of-work entity each, so that
 * the batch writes each kind with one statement. The rows are the ones changeScope would write.
 */
export class CollectedChangeRecords {
  private audits: IAuditLogEntry[] = [];
  private events: OutboxRecord[] = [];

  constructor(
    private readonly producer: string,
    private readonly options: CollectedChangeRecordsOptions = {},
  ) {}

  /** changeScope whose audit rows (unless left to the unit of work) and events are collected here. */
  scope(em: EntityManager, organizationId: string, context: RequestContext, now: Date): ChangeScope {
    const base = changeScope(em, this.producer, organizationId, context, now);
    const scope: ChangeScope = {
      ...base,
      audit: this.options.auditsByUnitOfWork
        ? base.audit
        : (action, objectType, objectId, details = {}) => {
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
        const { envelope, record } = outboxRecord({
          producer: this.producer,
          organizationId,
          requestId: context.requestId,
          occurredAt: now,
          ...event,
        });
        this.events.push(record);
        this.options.published?.push(envelope);
      },
      notBefore: (moment) =>
        moment.getTime() > now.getTime() ? this.scope(em, organizationId, context, moment) : scope,
    };
    return scope;
  }

  /** The audit rows and outbox rows collected since the last take, in their order; starts afresh. */
  take(): { audits: IAuditLogEntry[]; events: OutboxRecord[] } {
    const taken = { audits: this.audits, events: this.events };
    this.audits = [];
    this.events = [];
    return taken;
  }

  /**
   * Writes what was collected since the last take, in the caller's transaction: the audit rows,
   * then the outbox rows in their order (the relay publishes by insertion position), one insert each.
   */
  async write(em: EntityManager): Promise<void> {
    const { audits, events } = this.take();
    await insertAuditEntries(em, audits);
    await insertOutboxRecords(em, events);
  }
}
