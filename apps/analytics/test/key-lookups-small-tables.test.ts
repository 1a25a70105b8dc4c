/**
 * The per-key lookups of the billing path (rowsPerKey) on tables of a thousand rows without
 * planner statistics, as a billing run's first minutes find them (or every minute of one where
 * autovacuum is off), their rows of one moment and a few plans and terms. There the planner
 * reckons a wide table's rows from its declared widths (a few per page), so `organization_id = ?`
 * looks as selective as the key on every (organization_id, …) index, and it took the cheapest to
 * descend: (organization_id, date), one page, its entries of one moment deduplicated. Each key
 * then read every row of the organization (a 10,000-subscription run: 2.4 s of Postgres under
 * analytics' organization lock). key-join-plans.test.ts holds the same statements to lookups on
 * an organization of 100,000 activities.
 */
import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { entriesReadInOrm, keyedUuids } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivedAccountActivities, subscriptionStartsOfAccounts } from '../src/db/account-activity-batch-store.js';
import { activitiesInScope } from '../src/db/activity-batch-store.js';
import { firstInvoiceSubscriptions, paymentSubscriptionsBackfill } from '../src/db/invoice-activity-store.js';
import { runWrites } from '../src/db/sql-rows.js';
import { useAnalyticsService } from './support/analytics-service.js';

const service = useAnalyticsService();
const run = <T>(work: (em: EntityManager) => Promise<T>) => inTransaction(service.service().orm, work);

const organizationId = randomUUID();
const ACCOUNTS = 500;
const SUBSCRIPTIONS = 1_000;
const KEYS = 100;
const TABLES = ['activity', 'account_activity', 'subscription_mrr'];

const { uuidOf, uuidOfRow } = keyedUuids<'account' | 'subscription' | 'invoice'>(organizationId);

beforeAll(async () => {
  await run(async (em) => {
    for (const table of TABLES) await em.execute(`alter table ${table} set (autovacuum_enabled = false)`);
    // Subscription g (1..1,000) belongs to account g % 500: two per account; one activity each,
    // all of one moment (now() is the transaction's) and of no invoice.
    await em.execute(
      `insert into activity (id, organization_id, account_id, subscription_id, type, date, created_date,
         updated_date, is_manual, is_churn, deleted, dropped, planned)
       select gen_random_uuid(), ?, ${uuidOfRow('account', `g % ${ACCOUNTS}`)},
         ${uuidOfRow('subscription', 'g')}, 'renewal', now(), now(), now(), false, false, false, false, false
         from generate_series(1, ${SUBSCRIPTIONS}) g`,
      [organizationId],
    );
    // Invoice g of subscription g: its invoice_sent, and a payment_made that names no subscription yet.
    await em.execute(
      `insert into activity (id, organization_id, account_id, subscription_id, invoice_id, type, date, created_date,
         updated_date, is_manual, is_churn, deleted, dropped, planned)
       select gen_random_uuid(), ?, ${uuidOfRow('account', `g % ${ACCOUNTS}`)},
         case when kind = 'invoice_sent' then ${uuidOfRow('subscription', 'g')} end, ${uuidOfRow('invoice', 'g')},
         kind, now(), now(), now(), false, false, false, false, false
         from generate_series(1, ${SUBSCRIPTIONS}) g, unnest(array['invoice_sent', 'payment_made']) as kind`,
      [organizationId],
    );
    await em.execute(
      `insert into account_activity (id, organization_id, account_id, type, date, created_date, mrr_change,
         churn_reason, is_manual, deleted, dropped)
       select gen_random_uuid(), ?, ${uuidOfRow('account', `g % ${ACCOUNTS}`)}, 'new', now(), now(), 0, '',
         false, false, false
         from generate_series(1, ${2 * ACCOUNTS}) g`,
      [organizationId],
    );
    await em.execute(
      `insert into subscription_mrr (id, organization_id, account_id, plan_id, terms_id, status, collection_method,
         currency, quantity, interval_type, interval_count, has_custom_price, original_start_date,
         last_modified_date, mrr, total_mrr, future_mrr, pending_mrr, version)
       select ${uuidOfRow('subscription', 'g')}, ?, ${uuidOfRow('account', `g % ${ACCOUNTS}`)},
         ?, ?, 'active', 'invoice', 'DKK', 1, 'month', 1, false, now(), now(),
         0, 0, 0, 0, 1
         from generate_series(1, ${SUBSCRIPTIONS}) g`,
      [organizationId, randomUUID(), randomUUID()],
    );
  });
  const [never] = await service
    .service()
    .orm.em.fork()
    .execute<[{ analyzed: string }]>(
      `select count(*) as analyzed from pg_stats where schemaname = current_schema() and tablename = any(?::text[])`,
      [`{${TABLES.join(',')}}`],
    );
  expect(Number(never.analyzed)).toBe(0);
}, 60_000);

/** What `statement` answers, and the entries each table gave it, in a transaction rolled back after. */
const measured = <T>(statement: (em: EntityManager) => Promise<T>) =>
  entriesReadInOrm(service.service().orm, statement);

/** A few entries per key, not the organization's rows for each (100 × 1,000). */
function expectKeyLookups(entries: Record<string, number>, read: string): void {
  expect(entries[read], `${read} was not read`).toBeGreaterThan(0);
  for (const [table, count] of Object.entries(entries)) expect(count, table).toBeLessThanOrEqual(40 * KEYS + 100);
}

describe(`the per-key lookups of analytics on small tables without statistics, for ${KEYS} keys`, () => {
  const n = Array.from({ length: KEYS }, (_, i) => i + 1);
  const accounts = n.map((k) => ({ organizationId, accountId: uuidOf('account', k) }));
  const subscriptions = n.map((k) => ({ organizationId, subscriptionId: uuidOf('subscription', k) }));

  it('derivedAccountActivities reads each account by its key', async () => {
    const { answer, entries } = await measured((em) => derivedAccountActivities(em, accounts));
    expect(answer).toHaveLength(2 * KEYS);
    expectKeyLookups(entries, 'account_activity');
  });

  it('subscriptionStartsOfAccounts reads each account by its key', async () => {
    const { answer, entries } = await measured((em) => subscriptionStartsOfAccounts(em, accounts));
    expect(answer).toHaveLength(2 * KEYS);
    expectKeyLookups(entries, 'subscription_mrr');
  });

  it('activitiesInScope reads each account and each subscription by its key', async () => {
    const { answer, entries } = await measured((em) =>
      activitiesInScope(em, {
        accounts: accounts.slice(0, 50),
        subscriptions: subscriptions.slice(50),
        droppingAll: [],
      }),
    );
    // Accounts 1..50: two subscriptions (k and 500 + k) of one activity each; subscriptions 51..100:
    // one each, of accounts not named.
    expect(answer).toHaveLength(50 * 2 + 50);
    expectKeyLookups(entries, 'activity');
  });

  it("firstInvoiceSubscriptions reads each invoice's activities by its key", async () => {
    const invoices = n.map((k) => ({ organizationId, invoiceId: uuidOf('invoice', k) }));
    const { answer, entries } = await measured((em) => firstInvoiceSubscriptions(em, invoices));
    expect(answer.size).toBe(KEYS);
    expect([...answer.values()].sort()).toEqual(subscriptions.map(({ subscriptionId }) => subscriptionId).sort());
    expectKeyLookups(entries, 'activity');
  });

  it("paymentSubscriptionsBackfill reads each invoice's payments by its key", async () => {
    const named = randomUUID();
    const { answer, entries } = await measured(async (em) => {
      await runWrites(em, [
        paymentSubscriptionsBackfill(
          n.map((k) => ({ organizationId, invoiceId: uuidOf('invoice', k), subscriptionId: named, dropped: false })),
        ),
      ]);
      const [{ count }] = await em.execute<[{ count: string }]>(
        `select count(*) as count from activity where type = 'payment_made' and subscription_id = ?`,
        [named],
      );
      return Number(count);
    });
    expect(answer).toBe(KEYS);
    expectKeyLookups(entries, 'activity');
  });
});
