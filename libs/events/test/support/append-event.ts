import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { MikroORM } from '@mikro-orm/postgresql';
import { appendToOutbox, type EventEnvelope } from '../../src/index.js';

/** Commits one outbox row the way a use case would. */
export function appendEvent(
  orm: MikroORM,
  producer: string,
  eventType = 'account.created',
  occurredAt = new Date('2026-01-01T00:00:00Z'),
): Promise<EventEnvelope> {
  return inTransaction(orm, async (em) =>
    appendToOutbox(em, {
      producer,
      eventType,
      organizationId: 'org-1',
      aggregateType: 'account',
      aggregateId: randomUUID(),
      payloadType: 'billing.events.v1.AccountChanged',
      payload: new TextEncoder().encode(`payload of ${eventType}`),
      occurredAt,
    }),
  );
}
