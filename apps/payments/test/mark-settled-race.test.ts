/**
 * markSettled run twice at once over the same succeeded attempts, as the settling worker and a
 * batch's own settling can: each ends, neither fails, every attempt is settled. Before the rows
 * were locked in id order, two such updates visiting the rows in opposite orders deadlocked (one of
 * them failed with 40P01; seen in a 100,000-subscription billing run).
 */
import { randomUUID } from 'node:crypto';
import type { TestSchema } from '@billing/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { markSettled } from '../src/db/charge-store.js';
import { openPaymentsSchema } from './support/payments-schema.js';

const ATTEMPTS = 2_000;
const ROUNDS = 5;
const organizationId = randomUUID();
const now = new Date('2026-03-01T09:00:00.000Z');

let database: TestSchema;
let orm: MikroORM;
let ids: string[];

beforeAll(async () => {
  ({ database, orm } = await openPaymentsSchema('payments_settle_race'));
  const rows = await orm.em.fork().execute<Array<{ id: string }>>(
    `insert into payment_attempt (id, organization_id, invoice_id, account_id, card_id, gateway, amount, currency,
       number, outcome, attempted_at, completed_at)
     select gen_random_uuid(), ?, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'noop', 100, 'DKK', 1,
       'succeeded', ?, ?
       from generate_series(1, ${ATTEMPTS})
     returning id`,
    [organizationId, now, now],
  );
  ids = rows.map((row) => row.id);
}, 60_000);

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

it('two settlements of the same attempts at once, in opposite orders, both end and settle each attempt', async () => {
  const attempts = ids.map((id) => ({ organization_id: organizationId, id }));
  const reversed = [...attempts].reverse();
  for (let round = 0; round < ROUNDS; round++) {
    await orm.em.fork().execute('update payment_attempt set settled_at = null');
    const outcomes = await Promise.allSettled([
      markSettled(orm.em.fork(), attempts, now),
      markSettled(orm.em.fork(), reversed, now),
    ]);
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
    ]);
    const [row] = await orm.em
      .fork()
      .execute<Array<{ settled: string }>>(
        'select count(*) filter (where settled_at is not null) as settled from payment_attempt',
      );
    expect(Number(row!.settled)).toBe(ATTEMPTS);
  }
});
