/**
 * A change that leaves a subscription expired names all its charges in its subscription.changed
 * events (SubscriptionChanged.charges): accounts keeps them and refuses to delete the account while
 * one of them is still on its way to an invoice (docs/architecture.md "Invoices and account
 * deletion"). Earlier charges count as much as the change's own last one: a renewal charge may
 * still be in flight when the subscription is cancelled.
 */
import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import { decodeEnvelope } from '@billing/events';
import type { RequestContext } from '@billing/observability';
import { subscriptionEventsV1 } from '@billing/proto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionWrite } from '../src/grpc/subscription-mapper.js';
import type { SubscriptionsDeps } from '../src/use-cases/deps.js';
import { createSubscription } from '../src/use-cases/subscriptions/create-subscription.js';
import { processDueOnTestClock } from '../src/use-cases/subscriptions/process-due-on-test-clock.js';
import { cancelSubscription, reactivateSubscription } from '../src/use-cases/subscriptions/subscription-actions.js';
import { type EngineDatabase, engineDatabase, seedMonthlyTerms } from './support/engine-database.js';

const START = new Date('2026-03-10T09:00:00Z');
const RENEWAL = new Date('2026-04-10T08:00:00Z');

describe('the charges an expiring change names', () => {
  let database: EngineDatabase;
  let orm: MikroORM;
  let deps: SubscriptionsDeps;
  beforeAll(async () => {
    database = await engineDatabase();
    orm = await database.open();
    deps = { orm, clock: new TestClock(START) };
  });
  afterAll(async () => {
    await database.close();
  });

  const db = () => orm.em.getConnection();
  const lastPosition = async (): Promise<number> => {
    const [row] = await db().execute<{ position: string | null }[]>('select max(position) as position from outbox');
    return Number(row!.position ?? 0);
  };
  /** Each subscription.changed of the organization after `position`: its change, status and named charges. */
  const changes = async (organizationId: string, position: number) => {
    const rows = await db().execute<{ payload: Buffer }[]>(
      `select payload from outbox where subject = 'subscriptions.subscription.changed' and position > ? order by position`,
      [position],
    );
    return rows
      .map((row) => decodeEnvelope(row.payload))
      .filter((envelope) => envelope.organization_id === organizationId)
      .map((envelope) => {
        const payload = subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload);
        return { change: payload.change, status: payload.subscription!.status, charges: payload.charges };
      });
  };
  const chargeIds = async (subscriptionId: string): Promise<string[]> =>
    (
      await db().execute<{ id: string }[]>('select id from charge where subscription_id = ? order by created_at, id', [
        subscriptionId,
      ])
    ).map((row) => row.id);

  it('names none while it lives, and every charge (earlier ones included) once a change expires it', async () => {
    const organizationId = randomUUID();
    const terms = await seedMonthlyTerms(orm, { organizationId, price: '100.00', at: START });
    const at = (time: Date): RequestContext => ({
      requestId: 'expiring-change-charges',
      organizationId,
      organizationTime: time.toISOString(),
      organizationTimeZone: 'Europe/Copenhagen',
    });

    let position = await lastPosition();
    const { uuid } = await createSubscription(
      deps,
      at(START),
      randomUUID(),
      subscriptionWrite({ terms, collection_method: 'invoice', start_date: START }, [
        'terms',
        'collection_method',
        'start_date',
      ]),
    );
    await processDueOnTestClock(deps, at(RENEWAL), RENEWAL);
    expect(await changes(organizationId, position)).toEqual([
      { change: 'created', status: 'active', charges: [] },
      { change: 'activated', status: 'active', charges: [] },
      { change: 'renewed', status: 'active', charges: [] },
    ]);
    const [first, renewal] = await chargeIds(uuid);

    position = await lastPosition();
    const cancelledAt = new Date('2026-04-20T09:00:00Z');
    await cancelSubscription(deps, at(cancelledAt), uuid, { cancellation_type: 'today' });
    const all = await chargeIds(uuid);
    // The first period's charge, the renewal's, and the credit for the rest of the renewed period.
    expect(all).toHaveLength(3);
    expect(all.slice(0, 2)).toEqual([first, renewal]);
    expect(await changes(organizationId, position)).toEqual([{ change: 'cancelled', status: 'expired', charges: all }]);

    position = await lastPosition();
    await reactivateSubscription(deps, at(new Date('2026-04-21T09:00:00Z')), uuid);
    expect(await changes(organizationId, position)).toEqual([{ change: 'reactivated', status: 'active', charges: [] }]);
  });
});
