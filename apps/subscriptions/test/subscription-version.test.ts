import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import { decodeEnvelope, type EventEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { subscriptionEventsV1 } from '@billing/proto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscriptionWrite } from '../src/grpc/subscription-mapper.js';
import type { SubscriptionsDeps } from '../src/use-cases/deps.js';
import { createSubscription } from '../src/use-cases/subscriptions/create-subscription.js';
import { processAllDue } from '../src/use-cases/subscriptions/process-due.js';
import { processDueOnTestClock } from '../src/use-cases/subscriptions/process-due-on-test-clock.js';
import { cancelSubscription, reactivateSubscription } from '../src/use-cases/subscriptions/subscription-actions.js';
import { updateSubscription } from '../src/use-cases/subscriptions/update-subscription.js';
import {
  type EngineDatabase,
  engineDatabase,
  seedDueSubscriptions,
  seedMonthlyTerms,
} from './support/engine-database.js';

const START = new Date('2026-03-10T09:00:00Z');
const RENEWAL = new Date('2026-04-10T08:00:00Z'); // 10:00 in Copenhagen, summer time
const ZONE = 'Europe/Copenhagen';

interface HandOver {
  context: RequestContext;
  events: EventEnvelope[];
}

/** What a subscription.changed envelope says: its id and the version of its snapshot. */
function snapshotVersion(envelope: EventEnvelope): { event: string; subscription: string; version: number } {
  const { subscription } = subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload);
  return { event: envelope.event_id, subscription: subscription!.uuid, version: subscription!.version };
}

describe('subscription version', () => {
  let database: EngineDatabase;
  let orm: MikroORM;
  /** What the service handed over after each commit, in order (the accounts client's place). */
  let handedOver: HandOver[];
  let deps: SubscriptionsDeps;

  beforeAll(async () => {
    database = await engineDatabase();
    orm = await database.open();
    deps = {
      orm,
      clock: new TestClock(START),
      committedEvents: async (events, context) => {
        handedOver.push({ context, events: [...events] });
      },
    };
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    handedOver = [];
  });

  const db = () => orm.em.getConnection();
  const storedVersion = async (id: string): Promise<number> => {
    const [row] = await db().execute<{ version: number }[]>('select version from subscription where id = ?', [id]);
    return row!.version;
  };
  /** subscription.changed events in the outbox, in publication order, after `position` (exclusive). */
  const changedEvents = async (organizationId: string, position = 0) => {
    const rows = await db().execute<{ position: string; payload: Buffer }[]>(
      `select position, payload from outbox where subject = 'subscriptions.subscription.changed' and position > ?
       order by position`,
      [position],
    );
    return rows.map((row) => decodeEnvelope(row.payload)).filter((event) => event.organization_id === organizationId);
  };
  const lastPosition = async (): Promise<number> => {
    const [row] = await db().execute<{ position: string | null }[]>('select max(position) as position from outbox');
    return Number(row!.position ?? 0);
  };
  /** The subscription.changed envelopes of the hand-overs so far. */
  const handedOverChanges = () =>
    handedOver.flatMap(({ events }) => events.filter((event) => event.event_type === 'subscription.changed'));

  it('is 1 after creation, one more per committed change, and every event carries the version it describes', async () => {
    const organizationId = randomUUID();
    const terms = await seedMonthlyTerms(orm, { organizationId, price: '100.00', at: START });
    // An organization on a test clock: its "now" comes with each call, and ProcessDue renews.
    const at = (time: Date): RequestContext => ({
      requestId: 'version-test',
      organizationId,
      organizationTime: time.toISOString(),
      organizationTimeZone: ZONE,
    });
    let position = await lastPosition();
    /** Runs one step; returns the stored version and the versions its events and hand-over carried. */
    const step = async (run: () => Promise<{ version: number }>) => {
      handedOver = [];
      const answer = await run();
      const published = (await changedEvents(organizationId, position)).map(snapshotVersion);
      position = await lastPosition();
      return {
        answer: answer.version,
        stored: await storedVersion(id),
        published: published.map((event) => event.version),
        // Exactly the committed events, handed over before the call returned, for this organization.
        handedOver: handedOverChanges().map(snapshotVersion),
        publishedEvents: published,
        contexts: handedOver.map(({ context }) => context.organizationId),
      };
    };

    let id = '';
    const created = await step(async () => {
      const subscription = await createSubscription(
        deps,
        at(START),
        randomUUID(),
        subscriptionWrite({ terms, collection_method: 'invoice', start_date: START }, [
          'terms',
          'collection_method',
          'start_date',
        ]),
      );
      id = subscription.uuid;
      return subscription;
    });
    // Created and started in one transaction: two events, both describing the state after it.
    expect(created).toMatchObject({ answer: 1, stored: 1, published: [1, 1], contexts: [organizationId] });
    expect(created.handedOver).toEqual(created.publishedEvents);

    const edit = (time: Date) =>
      step(() => updateSubscription(deps, at(time), id, subscriptionWrite({ po_number: 'PO-1' }, ['po_number'])));
    const edited = await edit(START);
    expect(edited).toMatchObject({ answer: 2, stored: 2, published: [2] });
    expect(edited.handedOver).toEqual(edited.publishedEvents);
    // The same edit again at the same frozen instant changes no value, yet it is a committed change
    // with its own event: without a newer version a reader could not tell it from a redelivery.
    const again = await edit(START);
    expect(again).toMatchObject({ answer: 3, stored: 3, published: [3] });

    const cancelled = await step(() =>
      cancelSubscription(deps, at(new Date('2026-03-12T09:00:00Z')), id, { cancellation_type: 'at_renewal' }),
    );
    expect(cancelled).toMatchObject({ answer: 4, stored: 4, published: [4] });
    const reactivated = await step(() => reactivateSubscription(deps, at(new Date('2026-03-13T09:00:00Z')), id));
    expect(reactivated).toMatchObject({ answer: 5, stored: 5, published: [5] });
    expect(reactivated.handedOver).toEqual(reactivated.publishedEvents);

    // The renewal goes through the scheduler's bulk statement (ProcessDue of the test clock), and
    // its events are handed over, for this organization, before ProcessDue answers.
    const renewed = await step(async () => {
      const { processed } = await processDueOnTestClock(deps, at(RENEWAL), RENEWAL);
      expect(processed).toBe(1);
      return { version: await storedVersion(id) };
    });
    expect(renewed).toMatchObject({ stored: 6, published: [6], contexts: [organizationId] });
    expect(renewed.handedOver).toEqual(renewed.publishedEvents);

    // Nothing due: no write, no new version, nothing handed over.
    const idle = await step(async () => {
      const { processed } = await processDueOnTestClock(deps, at(RENEWAL), RENEWAL);
      expect(processed).toBe(0);
      return { version: await storedVersion(id) };
    });
    expect(idle).toMatchObject({ stored: 6, published: [], handedOver: [], contexts: [] });
  });

  it('counts each row of a renewal batch once and hands each organization its own events after the commit', async () => {
    const organizations = [randomUUID(), randomUUID()];
    for (const organizationId of organizations) {
      await seedDueSubscriptions(orm, { organizationId, count: 3, start: START, price: '50.00', timeZone: ZONE });
    }
    const position = await lastPosition();
    const calls: HandOver[] = [];
    const processed = await processAllDue(
      orm,
      { now: START, testClockOrganization: null, batchSize: 100 },
      {
        committedEvents: async (events, context) => {
          // Called after the commit: the batch's rows are already there for anyone to read.
          const [stored] = await db().execute<{ count: string }[]>(
            `select count(*) from subscription where organization_id = ? and version = 2`,
            [context.organizationId],
          );
          calls.push({ context: { ...context, requestId: 'scheduler' }, events: [...events] });
          expect(Number(stored!.count)).toBe(3);
        },
      },
    );
    expect(processed).toBe(6);
    // One call per organization, with only that organization's events (each started subscription:
    // its charge and its change), in publication order.
    expect(calls.map(({ context }) => context.organizationId).sort()).toEqual([...organizations].sort());
    for (const { context, events } of calls) {
      const organizationId = context.organizationId!;
      expect(context).toEqual({ requestId: 'scheduler', clientSystem: 'scheduler', organizationId });
      const outbox = await db().execute<{ payload: Buffer }[]>(
        'select payload from outbox where position > ? order by position',
        [position],
      );
      const own = outbox.map((row) => decodeEnvelope(row.payload)).filter((e) => e.organization_id === organizationId);
      expect(events.map((event) => event.event_id)).toEqual(own.map((event) => event.event_id));
      const changes = events.filter((event) => event.event_type === 'subscription.changed').map(snapshotVersion);
      expect(changes.map((change) => change.version)).toEqual([2, 2, 2]);
      for (const change of changes) expect(await storedVersion(change.subscription)).toBe(2);
    }
  });

  it('counts the plain update that sets a failing renewal aside', async () => {
    const organizationId = randomUUID();
    const { termsId } = await seedDueSubscriptions(orm, {
      organizationId,
      count: 1,
      start: START,
      price: '50.00',
      timeZone: ZONE,
    });
    // Terms that no longer exist make the engine fail for this row; the scheduler retries it in an hour.
    await db().execute('delete from plan_terms where id = ?', [termsId]);
    const [row] = await db().execute<{ id: string }[]>('select id from subscription where organization_id = ?', [
      organizationId,
    ]);
    const calls: HandOver[] = [];
    await processAllDue(
      orm,
      { now: START, testClockOrganization: null, batchSize: 100 },
      { committedEvents: async (events, context) => void calls.push({ context, events: [...events] }) },
    );
    const [after] = await db().execute<{ version: number; due_at: string }[]>(
      'select version, due_at from subscription where id = ?',
      [row!.id],
    );
    expect(after).toEqual({ version: 2, due_at: '2026-03-10 10:00:00+00' });
    expect(calls.filter(({ context }) => context.organizationId === organizationId)).toEqual([]);
  });
});
