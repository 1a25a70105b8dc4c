/**
 * A write racing the test clock's processing of the same subscription, on a real database. Through
 * HTTP the two interleave only by chance; here each interleaving is made on purpose: a row lock held
 * by another transaction (a write in progress) and a call carrying the time it was authenticated at
 * after the clock moved on (docs/subscription-engine.md "Concurrency").
 */
import { randomUUID } from 'node:crypto';
import { TestClock } from '@billing/clock';
import type { RequestContext } from '@billing/observability';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionWrite } from '../src/grpc/subscription-mapper.js';
import type { SubscriptionsDeps } from '../src/use-cases/deps.js';
import { createSubscription } from '../src/use-cases/subscriptions/create-subscription.js';
import { processDueOnTestClock } from '../src/use-cases/subscriptions/process-due-on-test-clock.js';
import { cancelSubscription } from '../src/use-cases/subscriptions/subscription-actions.js';
import { updateSubscription } from '../src/use-cases/subscriptions/update-subscription.js';
import { type EngineDatabase, engineDatabase, seedMonthlyTerms } from './support/engine-database.js';

const START = new Date('2026-02-01T09:00:00Z'); // 10:00 in Copenhagen
const LAST_DAY = new Date('2026-02-28T12:00:00Z'); // 1 of the period's 28 days left
const RENEWAL = new Date('2026-03-01T09:00:00Z');

describe('a write racing the test clock', () => {
  let database: EngineDatabase;
  let orm: MikroORM;
  let holder: MikroORM;
  let deps: SubscriptionsDeps;

  beforeAll(async () => {
    database = await engineDatabase();
    orm = await database.open();
    holder = await database.open();
    deps = { orm, clock: new TestClock(START) };
  });
  afterAll(async () => {
    await database.close();
  });

  const db = () => orm.em.getConnection();

  /** A test-clock organization with one subscription of 1 × 100.00 DKK monthly from START. */
  async function subscribed() {
    const organizationId = randomUUID();
    const terms = await seedMonthlyTerms(orm, { organizationId, price: '100.00', at: START });
    const at = (time: Date): RequestContext => ({
      requestId: `race-${randomUUID()}`,
      organizationId,
      organizationTime: time.toISOString(),
      organizationTimeZone: 'Europe/Copenhagen',
    });
    const created = await createSubscription(
      deps,
      at(START),
      randomUUID(),
      subscriptionWrite({ terms, collection_method: 'invoice' }, ['terms', 'collection_method']),
    );
    return { organizationId, at, id: created.uuid };
  }

  /**
   * The subscription's documents: kind, period start (local day) and amount, in the order made (at
   * one instant a renewal comes before what follows it).
   */
  async function documents(id: string) {
    const rows = await db().execute<{ kind: string; lines: { period_date_from: string }[]; amount: string }[]>(
      `select kind, lines, amount from charge where subscription_id = ? order by created_at, kind <> 'renewal', id`,
      [id],
    );
    return rows.map((row) => [row.kind, row.lines[0]!.period_date_from, String(row.amount)]);
  }

  async function stored(id: string) {
    const [row] = await db().execute<{ quantity: number; last_renewal_date: Date; updated_at: Date }[]>(
      'select quantity, last_renewal_date, updated_at from subscription where id = ?',
      [id],
    );
    return {
      quantity: row!.quantity,
      last_renewal_date: new Date(row!.last_renewal_date).toISOString(),
      updated_at: new Date(row!.updated_at).toISOString(),
    };
  }

  it("the advance's processing waits for a write holding the subscription instead of skipping it", async () => {
    const { id, at } = await subscribed();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holderPid = 0;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another transaction holds the row, as a write in progress does, until released.
    const holding = holder.em.fork().transactional(async (em) => {
      const [me] = await em.execute<{ pid: number }[]>('select pg_backend_pid() as pid');
      holderPid = me!.pid;
      await em.execute('select id from subscription where id = ? for update', [id]);
      locked();
      await released;
    });
    await isLocked;

    const processing = processDueOnTestClock(deps, at(RENEWAL), RENEWAL);
    const waitsForTheRow = async (): Promise<'waiting'> => {
      for (;;) {
        const [row] = await db().execute<{ waiting: string }[]>(
          'select count(*) as waiting from pg_stat_activity where ? = any(pg_blocking_pids(pid))',
          [holderPid],
        );
        if (Number(row!.waiting) > 0) return 'waiting';
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const first = await Promise.race([processing.then(() => 'answered' as const), waitsForTheRow()]);
    release();
    await holding;

    expect(first).toBe('waiting');
    expect(await processing).toMatchObject({ processed: 1 });
    expect(await stored(id)).toMatchObject({ last_renewal_date: RENEWAL.toISOString() });
    expect(await documents(id)).toEqual([
      ['renewal', '2026-02-01', '100.000000'],
      ['renewal', '2026-03-01', '100.000000'],
    ]);
  });

  it('a change sent before the clock moved but arriving after the renewal acts at the renewal, not before it', async () => {
    const { id, at } = await subscribed();
    await processDueOnTestClock(deps, at(RENEWAL), RENEWAL);

    // Authenticated at LAST_DAY; the clock moved to RENEWAL and renewed the subscription meanwhile.
    await updateSubscription(deps, at(LAST_DAY), id, subscriptionWrite({ quantity: 2 }, ['quantity']));

    // As if sent right after the renewal: March credited at 1 and charged at 2, whole (31 of 31 days).
    expect(await documents(id)).toEqual([
      ['renewal', '2026-02-01', '100.000000'],
      ['renewal', '2026-03-01', '100.000000'],
      ['change', '2026-03-01', '100.000000'],
    ]);
    expect(await stored(id)).toEqual({
      quantity: 2,
      last_renewal_date: RENEWAL.toISOString(),
      updated_at: RENEWAL.toISOString(),
    });
  });

  it('a cancellation arriving after the renewal credits the period that began, not the one before', async () => {
    const { id, at } = await subscribed();
    await processDueOnTestClock(deps, at(RENEWAL), RENEWAL);

    await cancelSubscription(deps, at(LAST_DAY), id, { cancellation_type: 'today' });

    expect(await documents(id)).toEqual([
      ['renewal', '2026-02-01', '100.000000'],
      ['renewal', '2026-03-01', '100.000000'],
      ['cancellation', '2026-03-01', '-100.000000'],
    ]);
  });
});
