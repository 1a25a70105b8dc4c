import { decodeEnvelope, type EventEnvelope } from '@billing/events';
import { describe, expect, it } from 'vitest';
import { forwardCommittedEvents } from './forward-committed-events.js';

const event = (eventType: string, id: string): EventEnvelope => ({
  event_id: id,
  event_type: eventType,
  schema_version: 1,
  organization_id: '11111111-1111-4111-8111-111111111111',
  occurred_at: new Date('2026-03-01T10:00:00Z'),
  request_id: 'req-1',
  aggregate_type: 'subscription',
  aggregate_id: '22222222-2222-4222-8222-222222222222',
  payload_type: 'billing.events.v1.SubscriptionChanged',
  payload: Buffer.from([1, 2, 3]),
});

const E1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const E2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const E3 = 'aaaaaaaa-0000-4000-8000-000000000003';

const context = { requestId: 'req-1', organizationId: '11111111-1111-4111-8111-111111111111' };

describe('forwardCommittedEvents', () => {
  it('sends the encoded envelopes of the wanted types only, in their order, with the context', async () => {
    const sent: { ids: string[]; context: unknown }[] = [];
    const warnings: unknown[] = [];
    const forward = forwardCommittedEvents({
      eventTypes: ['subscription.changed'],
      send: async (envelopes, callContext) => {
        sent.push({ ids: envelopes.map((bytes) => decodeEnvelope(bytes).event_id), context: callContext });
      },
      logger: { warn: (details) => warnings.push(details) },
    });

    await forward(
      [event('subscription.changed', E1), event('charge.created', E2), event('subscription.changed', E3)],
      context,
    );

    expect(sent).toEqual([{ ids: [E1, E3], context }]);
    expect(warnings).toEqual([]);
  });

  it('does not call the receiver when no event is of a wanted type', async () => {
    let calls = 0;
    const forward = forwardCommittedEvents({
      eventTypes: ['subscription.changed'],
      send: async () => {
        calls += 1;
      },
      logger: { warn: () => undefined },
    });
    await forward([event('charge.created', E1)], context);
    expect(calls).toBe(0);
  });

  it('logs a failed hand-over with the event ids and resolves: the change is committed already', async () => {
    const warnings: unknown[] = [];
    const forward = forwardCommittedEvents({
      eventTypes: ['subscription.changed'],
      send: async () => {
        throw new Error('accounts unavailable');
      },
      logger: { warn: (details) => warnings.push(details) },
    });
    await expect(forward([event('subscription.changed', E1)], context)).resolves.toBeUndefined();
    expect(warnings).toEqual([{ err: new Error('accounts unavailable'), events: [E1] }]);
  });
});
