import { inTransaction } from '@billing/db';
import { runWithContext } from '@billing/observability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendToOutbox, decodeEnvelope, OutboxMessage } from '../src/index.js';
import { openMigratedTestOrm, type TestOrm } from './support/test-orm.js';

let db: TestOrm;
beforeAll(async () => {
  db = await openMigratedTestOrm('events_outbox');
});
afterAll(async () => db?.dispose());

const input = {
  producer: 'accounts',
  eventType: 'account.created',
  organizationId: 'org-7',
  aggregateType: 'account',
  aggregateId: 'acc-1',
  payloadType: 'billing.events.v1.AccountChanged',
  payload: new Uint8Array([1, 2, 3]),
  occurredAt: new Date('2026-03-04T05:06:07Z'),
};

describe('appendToOutbox', () => {
  it('stores the encoded envelope under its event id and subject, unpublished', async () => {
    const envelope = await runWithContext({ requestId: 'req-42' }, () =>
      inTransaction(db.orm, async (em) => appendToOutbox(em, input)),
    );

    const row = await db.orm.em.fork().findOneOrFail(OutboxMessage, envelope.event_id);
    expect(row).toMatchObject({ subject: 'accounts.account.created', publishedAt: null, attempts: 0, lastError: null });
    expect(row.createdAt.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(decodeEnvelope(row.payload)).toEqual({
      event_id: envelope.event_id,
      event_type: 'account.created',
      schema_version: 1,
      organization_id: 'org-7',
      occurred_at: new Date('2026-03-04T05:06:07Z'),
      request_id: 'req-42',
      aggregate_type: 'account',
      aggregate_id: 'acc-1',
      payload_type: 'billing.events.v1.AccountChanged',
      payload: Buffer.from([1, 2, 3]),
    });
  });

  it('disappears with the transaction that rolls back', async () => {
    let eventId = '';
    await expect(
      inTransaction(db.orm, async (em) => {
        eventId = appendToOutbox(em, { ...input, requestId: 'explicit' }).event_id;
        await em.flush();
        throw new Error('use case failed after writing');
      }),
    ).rejects.toThrow('use case failed');

    expect(await db.orm.em.fork().count(OutboxMessage, { id: eventId })).toBe(0);
  });

  it('refuses event types that would make a bad subject', () => {
    const em = db.orm.em.fork();
    expect(() => appendToOutbox(em, { ...input, eventType: 'Account Created' })).toThrow(/Invalid event type/);
  });
});
