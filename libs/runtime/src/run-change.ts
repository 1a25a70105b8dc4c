import type { Clock } from '@billing/clock';
import { inTransaction, recordAudit } from '@billing/db';
import { AppError } from '@billing/errors';
import { appendToOutbox, type EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

export interface ChangeScope {
  em: EntityManager;
  organizationId: string;
  now: Date;
  /** Records who did what to which object, in this transaction. */
  audit(action: string, objectType: string, objectId: string, details?: Record<string, unknown>): void;
  /** Appends an event to the outbox, in this transaction; the relay publishes it after commit. */
  publish(event: {
    eventType: string;
    aggregateType: string;
    aggregateId: string;
    payloadType: string;
    payload: Uint8Array;
  }): void;
  /**
   * This change at `moment` when that is later than `now` (else this scope itself): the same
   * transaction, audit and outbox, with the later time on what it stamps. For a change that finds
   * its object already changed at a later moment than its own (subscriptions: time must not run
   * backwards for a subscription).
   */
  notBefore(moment: Date): ChangeScope;
}

/**
 * Told the events of a change once its transaction committed, before the change's caller gets its
 * answer (e.g. forwardCommittedEvents, which hands them to a read model at once). It must not
 * throw: the change is committed and its events are in the outbox whatever it does.
 */
export type CommittedEventsListener = (events: readonly EventEnvelope[], context: RequestContext) => Promise<void>;

/**
 * One change = one transaction: the use case loads and changes rows, and its audit entry and its
 * events commit with it or not at all.
 */
export async function runChange<T>(
  deps: { orm: MikroORM; clock: Clock; committedEvents?: CommittedEventsListener | undefined },
  producer: string,
  context: RequestContext,
  change: (scope: ChangeScope) => Promise<T>,
): Promise<T> {
  const organizationId = requireOrganization(context);
  let published: EventEnvelope[] = [];
  const result = await inTransaction(deps.orm, async (em) => {
    // A retried transaction starts again: only the events of the attempt that commits count.
    published = [];
    const now = orgNow(deps.clock, context);
    return change(changeScope(em, producer, organizationId, context, now, published));
  });
  if (published.length > 0 && deps.committedEvents) await deps.committedEvents(published, context);
  return result;
}

/**
 * The scope of one change inside an open transaction: its audit rows and outbox events go with
 * it. runChange makes one per call; a scheduler makes one per organization it works for.
 */
export function changeScope(
  em: EntityManager,
  producer: string,
  organizationId: string,
  context: RequestContext,
  now: Date,
  /** Collects the scope's events as they are appended (for a CommittedEventsListener). */
  published?: EventEnvelope[],
): ChangeScope {
  const scope: ChangeScope = {
    em,
    organizationId,
    now,
    audit: (action, objectType, objectId, details = {}) =>
      void recordAudit(em, {
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
    publish: (event) => {
      const envelope = appendToOutbox(em, {
        producer,
        organizationId,
        requestId: context.requestId,
        occurredAt: now,
        ...event,
      });
      published?.push(envelope);
    },
    notBefore: (moment) =>
      moment.getTime() > now.getTime() ? changeScope(em, producer, organizationId, context, moment, published) : scope,
  };
  return scope;
}

/**
 * "Now" for the calling organization: its test clock's time when it runs on one (the gateway
 * passes it with every call), otherwise the service's clock.
 */
export function orgNow(clock: Clock, context: RequestContext): Date {
  if (context.organizationTime) {
    const time = new Date(context.organizationTime);
    if (!Number.isNaN(time.getTime())) return time;
  }
  return clock.now();
}

export function requireOrganization(context: RequestContext): string {
  if (!context.organizationId) throw AppError.unauthenticated('No organization in the call.');
  return context.organizationId;
}
