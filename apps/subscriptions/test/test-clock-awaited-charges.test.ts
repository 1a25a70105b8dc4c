/**
 * Which charges a test clock's advance waits for (ProcessDue's charge_ids): every charge of the
 * organization that no advance has confirmed invoiced yet, whoever made it and when, until
 * ConfirmChargesInvoiced (docs/api.md "Test clocks"). On a real database.
 */
import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import type { RequestContext } from '@billing/observability';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionWrite } from '../src/grpc/subscription-mapper.js';
import type { SubscriptionsDeps } from '../src/use-cases/deps.js';
import { createSubscription } from '../src/use-cases/subscriptions/create-subscription.js';
import {
  confirmChargesInvoicedOnTestClock,
  processDueOnTestClock,
} from '../src/use-cases/subscriptions/process-due-on-test-clock.js';
import { type EngineDatabase, engineDatabase, seedMonthlyTerms } from './support/engine-database.js';

const START = new Date('2026-02-01T09:00:00Z');
const LATER = new Date('2026-02-01T09:01:00Z');
const RENEWAL = new Date('2026-03-01T09:01:00Z'); // both subscriptions renew by then

describe('the charges a test clock advance waits for', () => {
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

  /** An organization (on a test clock unless `realClock`) with monthly terms; `subscribe` makes one subscription now. */
  async function organization(realClock = false) {
    const organizationId = randomUUID();
    const terms = await seedMonthlyTerms(orm, { organizationId, price: '100.00', at: START });
    const at = (time: Date): RequestContext => ({
      requestId: `awaited-${randomUUID()}`,
      organizationId,
      organizationTimeZone: 'Europe/Copenhagen',
      ...(realClock ? {} : { organizationTime: time.toISOString() }),
    });
    const subscribe = async (time: Date) =>
      createSubscription(
        deps,
        at(time),
        randomUUID(),
        subscriptionWrite({ terms, collection_method: 'invoice' }, ['terms', 'collection_method']),
      );
    const chargeIds = async (subscription?: string) => {
      const rows = await orm.em
        .getConnection()
        .execute<{ id: string }[]>(
          `select id from charge where organization_id = ? ${subscription ? 'and subscription_id = ?' : ''} order by id`,
          subscription ? [organizationId, subscription] : [organizationId],
        );
      return rows.map((row) => row.id);
    };
    return { organizationId, at, subscribe, chargeIds };
  }

  it('lists the charges of calls made before the advance, not only those it makes, until they are confirmed', async () => {
    const org = await organization();
    const first = await org.subscribe(START);
    const second = await org.subscribe(LATER);
    const made = await org.chargeIds();
    expect(made).toHaveLength(2);

    // Nothing due at LATER: the charges the two calls made are still listed.
    expect(await processDueOnTestClock(deps, org.at(LATER), LATER)).toEqual({ processed: 0, charge_ids: made });
    // An advance that failed before confirming: the next lists them again, with its own.
    const renewal = await processDueOnTestClock(deps, org.at(RENEWAL), RENEWAL);
    expect(renewal.processed).toBe(2);
    const all = await org.chargeIds();
    expect(all).toHaveLength(4);
    expect(renewal.charge_ids).toEqual(all);

    await confirmChargesInvoicedOnTestClock(deps, org.at(RENEWAL), renewal.charge_ids);
    expect(await processDueOnTestClock(deps, org.at(RENEWAL), RENEWAL)).toEqual({ processed: 0, charge_ids: [] });
    expect((await org.chargeIds(first.uuid)).length + (await org.chargeIds(second.uuid)).length).toBe(4);
  });

  it("confirms only the calling organization's charges, and only those named", async () => {
    const mine = await organization();
    const theirs = await organization();
    await mine.subscribe(START);
    await mine.subscribe(START);
    await theirs.subscribe(START);
    const [confirmed, kept] = await mine.chargeIds();
    const foreign = await theirs.chargeIds();

    await confirmChargesInvoicedOnTestClock(deps, mine.at(START), [confirmed!, ...foreign, 'not-a-uuid']);

    expect((await processDueOnTestClock(deps, mine.at(START), START)).charge_ids).toEqual([kept]);
    expect((await processDueOnTestClock(deps, theirs.at(START), START)).charge_ids).toEqual(foreign);
  });

  it('never lists a real-clock organization’s charges, and refuses to process for it', async () => {
    const org = await organization(true);
    await org.subscribe(START);
    const [row] = await orm.em
      .getConnection()
      .execute<{ awaiting: boolean }[]>(
        'select bool_or(awaiting_invoice) as awaiting from charge where organization_id = ?',
        [org.organizationId],
      );
    expect(row!.awaiting).toBe(false);
    await expect(processDueOnTestClock(deps, org.at(START), START)).rejects.toMatchObject({
      reason: 'NOT_ON_TEST_CLOCK',
    });
  });
});
