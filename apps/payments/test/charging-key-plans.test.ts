/**
 * The charging statements (db/charge-store) look their rows up by key, with or without planner
 * statistics, for a batch of 5 keys as for one of 500 (a consumer's fetch): with 100,000 invoices
 * of an organization waiting and 100,000 attempts pending, each statement reads a few index
 * entries per key (at 500 without statistics a join of the keys hashed a scan of every waiting
 * invoice before), never every 'pending' entry of the (status,
 * next_attempt_at) or (outcome, settled_at) indexes, nor the organization's range. Keys go in as
 * typed arrays (pgArray + unnest) and states are tested as filters on the row found (see the top of
 * charge-store.ts). What each statement read is counted with Postgres' per-transaction statistics
 * (entriesReadBy), whatever plan it took; each runs in a transaction rolled back after.
 */
import { randomUUID } from 'node:crypto';
import { entriesReadBy, entriesReadInOrm, keyedUuids, type TestSchema } from '@billing/testing';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeCardsOf,
  insertAttempts,
  lockAttempts,
  lockDueInvoices,
  markNoCard,
  markSettled,
  pendingAttempts,
  storeOutcomes,
} from '../src/db/charge-store.js';
import { openPaymentsSchema } from './support/payments-schema.js';

let database: TestSchema;
let orm: MikroORM;

const organizationId = randomUUID();
// As many cards as invoices: with a few pages of cards a sequential scan is honestly the cheaper
// plan, and the planner takes it, statistics or not.
const INVOICES = 100_000;
const CARDS = 100_000;
const TABLES = ['invoice_payment', 'payment_attempt', 'payment_card'];
const now = new Date('2026-03-01T09:00:00.000Z');

/** The uuid of the organization's n-th invoice, attempt, card or account: md5(organization, kind, n), in SQL as in JS. */
const { uuidOf, uuidOfRow } = keyedUuids<'invoice' | 'attempt' | 'card' | 'account'>(organizationId);

beforeAll(async () => {
  ({ database, orm } = await openPaymentsSchema('payments_key_plans'));
  const em = orm.em.fork();
  for (const table of TABLES) await em.execute(`alter table ${table} set (autovacuum_enabled = false)`);
  // Card n belongs to account n; invoice g to account g % 100,000, waiting for its first attempt,
  // which a crashed run left pending (attempt g).
  await em.execute(
    `insert into payment_card (id, organization_id, account_id, active, brand, last4, month, year, name, gateway,
       gateway_id, created_at, updated_at, version)
     select ${uuidOfRow('card', 'g')}, ?, ${uuidOfRow('account', 'g')}, true, 'visa', '4242', 12, 2030, 'Card', 'noop',
       'pm_' || g, ?, ?, 1
       from generate_series(0, ${CARDS - 1}) g`,
    [organizationId, now, now],
  );
  await em.execute(
    `insert into invoice_payment (invoice_id, organization_id, account_id, invoice_number, amount, currency, status,
       test_clock, next_attempt_at, attempts_made, created_at, updated_at)
     select ${uuidOfRow('invoice', 'g')}, ?, ${uuidOfRow('account', `g % ${CARDS}`)}, g::text, 100, 'DKK', 'pending',
       false, ?, 0, ?, ?
       from generate_series(1, ${INVOICES}) g`,
    [organizationId, now, now, now],
  );
  await em.execute(
    `insert into payment_attempt (id, organization_id, invoice_id, account_id, card_id, gateway, amount, currency,
       number, outcome, attempted_at)
     select ${uuidOfRow('attempt', 'g')}, ?, ${uuidOfRow('invoice', 'g')}, ${uuidOfRow('account', `g % ${CARDS}`)},
       ${uuidOfRow('card', `g % ${CARDS}`)}, 'noop', 100, 'DKK', 1, 'pending', ?
       from generate_series(1, ${INVOICES}) g`,
    [organizationId, now],
  );
}, 120_000);

afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

/** What `statement` answers and the entries each table gave it, in a transaction rolled back after. */
const measured = <T>(statement: (em: EntityManager) => Promise<T>) => entriesReadInOrm(orm, statement);

describe.each([
  [5, false],
  [200, false],
  [500, false],
  [5, true],
  [200, true],
  [500, true],
])('the charging statements for %i keys (planner statistics: %s)', (keys, analyzed) => {
  const N = Array.from({ length: keys }, (_, i) => i + 1);
  const invoiceIds = N.map((n) => uuidOf('invoice', n));
  const attempts = N.map((n) => ({ organization_id: organizationId, id: uuidOf('attempt', n) }));

  /** A few entries per key of an index and of a primary key: nowhere near the 100,000 waiting or pending. */
  function expectKeyLookups(entries: Record<string, number>, table: string): void {
    expect(entries[table], `${table} was not read`).toBeGreaterThan(0);
    for (const [name, count] of Object.entries(entries)) expect(count, name).toBeLessThanOrEqual(10 * keys + 50);
  }

  beforeAll(async () => {
    if (analyzed) await orm.em.fork().execute(`analyze ${TABLES.join(', ')}`);
  });

  it('lockDueInvoices: due invoices and the attempts a crashed run left pending', async () => {
    const { answer, entries } = await measured((em) =>
      lockDueInvoices(
        em,
        invoiceIds.map((invoiceId) => ({ invoiceId, now })),
      ),
    );
    expect(answer.map((row) => row.pending_attempt_id).sort()).toEqual(attempts.map((a) => a.id).sort());
    expectKeyLookups(entries, 'invoice_payment');
    expectKeyLookups(entries, 'payment_attempt');
  });

  it('pendingAttempts: attempts with their cards', async () => {
    const { answer, entries } = await measured((em) => pendingAttempts(em, attempts));
    expect(answer.map((row) => row.card.gateway_id).sort()).toEqual(N.map((n) => `pm_${n}`).sort());
    expectKeyLookups(entries, 'payment_attempt');
  });

  it('activeCardsOf: the cards of the accounts', async () => {
    const { answer, entries } = await measured((em) =>
      activeCardsOf(
        em,
        N.map((n) => ({ organization_id: organizationId, account_id: uuidOf('account', n) })),
      ),
    );
    expect(answer).toHaveLength(keys);
    expectKeyLookups(entries, 'payment_card');
  });

  it('markNoCard: invoices', async () => {
    const { entries } = await measured(async (em) => {
      await markNoCard(
        em,
        invoiceIds.map((invoice_id) => ({ organization_id: organizationId, invoice_id, at: now })),
      );
      return null;
    });
    expectKeyLookups(entries, 'invoice_payment');
  });

  it('insertAttempts: second attempts of invoices', async () => {
    const { entries } = await measured(async (em) => {
      await insertAttempts(
        em,
        N.map((n) => ({
          id: randomUUID(),
          organization_id: organizationId,
          invoice_id: uuidOf('invoice', n),
          account_id: uuidOf('account', n),
          card_id: uuidOf('card', n),
          gateway: 'noop',
          amount: '100',
          currency: 'DKK',
          number: 2,
          outcome: 'pending',
          gateway_reference: '',
          decline_reason: '',
          attempted_at: now,
          completed_at: null,
          settled_at: null,
        })),
      );
      return null;
    });
    expectKeyLookups(entries, 'invoice_payment');
  });

  it('lockAttempts: attempts with their cards and invoices', async () => {
    const { answer, entries } = await measured((em) => lockAttempts(em, attempts));
    expect(answer.map((row) => row.invoice.invoice_number).sort()).toEqual(N.map(String).sort());
    expectKeyLookups(entries, 'payment_attempt');
    expectKeyLookups(entries, 'invoice_payment');
  });

  it('storeOutcomes: succeeded attempts, their invoices paid', async () => {
    // Counted after lockAttempts, which reads the attempts storeOutcomes is given.
    const { answer: entries } = await measured(async (em) => {
      const locked = await lockAttempts(em, attempts);
      return entriesReadBy(
        (sql) => em.execute(sql),
        () =>
          storeOutcomes(
            em,
            locked.map(({ attempt }) => ({
              attempt: { ...attempt, outcome: 'succeeded', completed_at: now },
              invoice: { status: 'paid', next_attempt_at: null },
              mail: {
                id: randomUUID(),
                facts: {
                  kind: 'payment_confirmation' as const,
                  invoice_number: '1',
                  amount: '100.00',
                  currency: 'DKK',
                  brand: 'visa',
                  last4: '4242',
                  paid_at: now.toISOString(),
                },
              },
            })),
          ),
      );
    });
    expect(entries.payment_attempt).toBeGreaterThan(0);
    expectKeyLookups(entries, 'invoice_payment');
  });

  it('markSettled: attempts', async () => {
    const { entries } = await measured(async (em) => {
      await markSettled(em, attempts, now);
      return null;
    });
    expectKeyLookups(entries, 'payment_attempt');
  });
});
