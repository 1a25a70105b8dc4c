/**
 * The batch reads of the billing path look their rows up by key, with or without planner
 * statistics: on an organization of 20,000 activities, each statement reads a few index entries
 * per key, never the organization's range of an (organization_id, …) index. Without statistics
 * (autovacuum off, or a table filled since its last analyze) the planner took
 * `organization_id = ? and id in (…)` for selective and walked every row of the organization; the
 * statements therefore join typed key lists (db/sql-rows keysTable). What each statement read is
 * counted with Postgres' per-transaction statistics (entriesReadBy), whatever plan it took.
 */
import { createHash, randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import { entriesReadBy } from '@billing/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivedAccountActivities, subscriptionStartsOfAccounts } from '../src/db/account-activity-batch-store.js';
import { activitiesInScope } from '../src/db/activity-batch-store.js';
import { findActivityNews } from '../src/db/activity-queries.js';
import { backfillPaymentSubscriptions, firstInvoiceSubscriptions } from '../src/db/invoice-activity-store.js';
import { useAnalyticsService } from './support/analytics-service.js';

const service = useAnalyticsService();
const run = <T>(work: (em: EntityManager) => Promise<T>) => inTransaction(service.service().orm, work);

const organizationId = randomUUID();
const ACTIVITIES = 20_000;
const TABLES = ['activity', 'account_activity', 'subscription_mrr'];
// Row g of the fill belongs to account g % 2,000, subscription g % 4,000 and, when even, invoice
// g % 10,000: an account has 10 activities, a subscription 5, an invoice 2 (all of one parity).
const MODULUS = { account: 2_000, subscription: 4_000, invoice: 10_000 } as const;
type Kind = keyof typeof MODULUS;

/** The uuid of the organization's n-th account, subscription or invoice: md5(organization, kind, n), in SQL as in JS. */
const uuidOf = (kind: Kind, n: number) =>
  createHash('md5')
    .update(`${organizationId}${kind}${n}`)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const uuidOfRow = (kind: Kind) => `md5('${organizationId}' || '${kind}' || (g % ${MODULUS[kind]}))::uuid`;

beforeAll(async () => {
  await run(async (em) => {
    for (const table of TABLES) await em.execute(`alter table ${table} set (autovacuum_enabled = false)`);
    await em.execute(
      `insert into activity (id, organization_id, account_id, subscription_id, invoice_id, type, date, created_date,
         updated_date, is_manual, is_churn, deleted, dropped, planned)
       select gen_random_uuid(), ?, ${uuidOfRow('account')}, ${uuidOfRow('subscription')},
         case when g % 2 = 0 then ${uuidOfRow('invoice')} end,
         case when g % 2 = 0 then 'invoice_sent' else 'renewal' end,
         now(), now(), now(), false, false, false, false, false
         from generate_series(1, ${ACTIVITIES}) g`,
      [organizationId],
    );
    await em.execute(
      `insert into account_activity (id, organization_id, account_id, type, date, created_date, mrr_change,
         churn_reason, is_manual, deleted, dropped)
       select gen_random_uuid(), ?, ${uuidOfRow('account')}, 'new', now(), now(), 0, '', false, false, false
         from generate_series(1, ${ACTIVITIES}) g`,
      [organizationId],
    );
    await em.execute(
      `insert into subscription_mrr (id, organization_id, account_id, plan_id, terms_id, status, collection_method,
         currency, quantity, interval_type, interval_count, has_custom_price, original_start_date,
         last_modified_date, mrr, total_mrr, future_mrr, pending_mrr, version)
       select ${uuidOfRow('subscription')}, ?, ${uuidOfRow('account')}, gen_random_uuid(), gen_random_uuid(), 'active',
         'invoice', 'DKK', 1, 'month', 1, false, now(), now(), 0, 0, 0, 0, 1
         from generate_series(1, ${MODULUS.subscription}) g`,
      [organizationId],
    );
  });
});

const FIVE = [1, 2, 3, 4, 5];
const accounts = FIVE.map((n) => ({ organizationId, accountId: uuidOf('account', n) }));
const subscriptions = FIVE.map((n) => ({ organizationId, subscriptionId: uuidOf('subscription', n) }));
const invoices = FIVE.map((n) => ({ organizationId, invoiceId: uuidOf('invoice', 2 * n) }));

/** A few entries per key of an index and of a primary key: nowhere near the organization's 20,000. */
const BOUND = 200;

/** What `read` answers, and the entries each table gave it (entriesReadBy) in its transaction. */
async function measured<T>(
  read: (em: EntityManager) => Promise<T>,
): Promise<{ answer: T; entries: Record<string, number> }> {
  return run(async (em) => {
    let answer!: T;
    const entries = await entriesReadBy(
      (sql) => em.execute(sql),
      async () => {
        answer = await read(em);
      },
    );
    return { answer, entries };
  });
}

/** Each table read at most BOUND entries; `read`, when named, was read (the statement found its rows). */
function expectKeyLookups(entries: Record<string, number>, read?: string): void {
  if (read) expect(entries[read], `${read} was not read`).toBeGreaterThan(0);
  for (const [name, count] of Object.entries(entries)) expect(count, name).toBeLessThanOrEqual(BOUND);
}

describe.each([
  ['without planner statistics', false],
  ['with planner statistics', true],
])('the batch reads of analytics, %s', (_label, analyzed) => {
  beforeAll(async () => {
    if (analyzed) await run((em) => em.execute(`analyze ${TABLES.join(', ')}`));
  });

  it('activitiesInScope: the MRR activities of 5 accounts and 5 subscriptions, every one of 5 subscriptions', async () => {
    const { answer, entries } = await measured((em) =>
      activitiesInScope(em, { accounts, subscriptions, droppingAll: subscriptions }),
    );
    // Accounts 1, 3, 5: 10 renewals each; subscriptions 2 and 4 (dropped whole): 5 invoice_sent each.
    expect(answer).toHaveLength(40);
    expectKeyLookups(entries, 'activity');
  });

  it('findActivityNews: 5 activities by id', async () => {
    const ids = await run((em) =>
      em.execute<Array<{ id: string }>>('select id from activity where organization_id = ? order by seq limit 5', [
        organizationId,
      ]),
    );
    const { answer, entries } = await measured((em) =>
      findActivityNews(
        em,
        organizationId,
        ids.map((row) => row.id),
      ),
    );
    expect(answer.views.map((view) => view.uuid).sort()).toEqual(ids.map((row) => row.id).sort());
    expectKeyLookups(entries, 'activity');
  });

  it('derivedAccountActivities: those of 5 accounts', async () => {
    const { answer, entries } = await measured((em) => derivedAccountActivities(em, accounts));
    expect(answer).toHaveLength(50);
    expectKeyLookups(entries, 'account_activity');
  });

  it('subscriptionStartsOfAccounts: the subscriptions of 5 accounts', async () => {
    const { answer, entries } = await measured((em) => subscriptionStartsOfAccounts(em, accounts));
    expect(answer).toHaveLength(10);
    expectKeyLookups(entries, 'subscription_mrr');
  });

  it('firstInvoiceSubscriptions: the first activity of 5 invoices', async () => {
    const { answer, entries } = await measured((em) => firstInvoiceSubscriptions(em, invoices));
    expect(answer.size).toBe(5);
    expectKeyLookups(entries, 'activity');
  });

  it('backfillPaymentSubscriptions: the payment activities of 5 invoices', async () => {
    const { entries } = await measured((em) =>
      backfillPaymentSubscriptions(
        em,
        invoices.map((invoice) => ({ ...invoice, subscriptionId: randomUUID(), dropped: false })),
      ),
    );
    // None to change: with statistics the planner may know that from the (organization,
    // subscription) index's few null entries and read nothing at all.
    expectKeyLookups(entries);
  });
});
