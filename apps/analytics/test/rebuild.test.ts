/**
 * Rebuild: an organization's activities, account activities and MRR made again from analytics'
 * journal end equal to what the events made as they came (compared whole, but for the row ids),
 * through the use case and through the built command line.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { EventEnvelope } from '@billing/events';
import { expect, it } from 'vitest';
import { handleAccountsEvent, handleSubscriptionsEvent } from '../src/events/consumers.js';
import { rebuildOrganization } from '../src/use-cases/rebuild.js';
import { useAnalyticsService } from './support/analytics-service.js';
import {
  accountCreated,
  type ChangeInput,
  organizationCreated,
  type PricingInput,
  planCreated,
  subscriptionChanged,
} from './support/events.js';

const CLI = fileURLToPath(new URL('../dist/admin/cli.js', import.meta.url));
const analytics = useAnalyticsService();
const service = {
  get orm() {
    return analytics.service().orm;
  },
};
const apply = (envelope: EventEnvelope, handle = handleSubscriptionsEvent) => analytics.apply(envelope, handle);

const PLAN = 'aaaaaaaa-0000-4000-8000-000000000002';
const TERMS = 'bbbbbbbb-0000-4000-8000-000000000002';
const price = (status: string, quantity: number, extra: Partial<PricingInput> = {}): PricingInput => ({
  terms: TERMS,
  plan: PLAN,
  status,
  quantity,
  unit_price: '100',
  ...extra,
});

/** Everything made from events, as rows without their ids (and the totals). */
async function state(organizationId: string) {
  const em = service.orm.em.fork();
  return {
    activities: await em.execute(
      `select subscription_id, invoice_id, type, date, created_date, updated_date, is_manual, is_churn, deleted, dropped,
              planned, plan_key, old_currency, new_currency, old_mrr_in_subscription_currency,
              new_mrr_in_subscription_currency, old_mrr, new_mrr, mrr_change, old_quantity, new_quantity,
              old_terms, new_terms, old_plan, new_plan, churn_reason, custom_churn_reason
         from activity where organization_id = ? order by date, seq`,
      [organizationId],
    ),
    accountActivities: await em.execute(
      `select account_id, subscription, type, date, created_date, old_mrr, new_mrr, mrr_change, churn_reason,
              account_first_subscription_start_date, is_manual, deleted, dropped
         from account_activity where organization_id = ? order by date, seq`,
      [organizationId],
    ),
    subscriptions: await em.execute('select * from subscription_mrr where organization_id = ? order by id', [
      organizationId,
    ]),
    totals: await em.execute('select * from mrr_totals where organization_id = ?', [organizationId]),
  };
}

/** Loses what the events made (as a wrong deploy or a hand edit might): the rebuild must not need it. */
async function damage(organizationId: string) {
  const em = service.orm.em.fork();
  await em.execute('delete from account_activity where organization_id = ?', [organizationId]);
  await em.execute('delete from activity where organization_id = ?', [organizationId]);
  await em.execute('update mrr_totals set total_mrr = 0, subscriptions_count = 0 where organization_id = ?', [
    organizationId,
  ]);
}

/** A history with every kind of activity: start, changes, planned and dropped cancel, renewal at a new rate, cancel_invalid. */
async function history() {
  const org = randomUUID();
  const account = randomUUID();
  await apply(
    organizationCreated(org, 'DKK', [
      { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
      { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' },
    ]),
    handleAccountsEvent,
  );
  await apply(accountCreated(org, account, 'acme', 'Acme ApS'), handleAccountsEvent);
  await apply(planCreated(org, PLAN, 'Pro', [{ uuid: TERMS, code: 'pro-monthly' }]));
  const changes = (subscription: string) => {
    let version = 0;
    return (input: Omit<ChangeInput, 'organizationId' | 'subscription' | 'account' | 'version'>) =>
      apply(subscriptionChanged({ organizationId: org, subscription, account, version: ++version, ...input }));
  };
  const main = changes(randomUUID());
  await main({
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: price('scheduled', 2),
    new: price('active', 2),
  });
  await main({
    change: 'changed',
    changeType: 'immediate',
    at: '2026-01-16T09:00:00Z',
    status: 'active',
    old: price('active', 2),
    new: price('active', 3),
  });
  await main({
    change: 'cancellation_scheduled',
    at: '2026-02-15T09:00:00Z',
    occurredAt: '2026-01-17T09:00:00Z',
    status: 'not_renewing',
    cancelAt: '2026-02-15T09:00:00Z',
    old: price('active', 3),
    new: price('not_renewing', 3),
  });
  await main({
    change: 'reactivated',
    at: '2026-01-18T09:00:00Z',
    status: 'active',
    old: price('not_renewing', 3),
    new: price('active', 3),
  });
  const euro = changes(randomUUID());
  const eur = (status: string) => price(status, 1, { currency: 'EUR' });
  await euro({
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: eur('scheduled'),
    new: eur('active'),
  });
  await euro({
    change: 'renewed',
    at: '2026-02-15T09:00:00Z',
    status: 'active',
    old: eur('active'),
    new: eur('active'),
  });
  const mistake = changes(randomUUID());
  await mistake({
    change: 'activated',
    at: '2026-01-20T09:00:00Z',
    status: 'active',
    old: price('scheduled', 1),
    new: price('active', 1),
  });
  await mistake({
    change: 'cancelled',
    cancellationType: 'cancel_invalid',
    at: '2026-01-21T09:00:00Z',
    status: 'expired',
    old: price('active', 1),
    new: price('expired', 1),
  });
  return org;
}

it('ends with the same activities, account activities and MRR as the events made', async () => {
  const org = await history();
  const before = await state(org);
  expect(before.activities.map((a) => a.type)).toEqual([
    'new',
    'new',
    'upgrade_qty',
    'new',
    'cancel',
    'currency_exchange',
    'renew',
  ]);
  await damage(org);
  expect(await rebuildOrganization(service.orm, org)).toEqual({
    organization: org,
    events: 8,
    activities: 7,
    account_activities: before.accountActivities.length,
  });
  expect(await state(org)).toEqual(before);
});

it('runs as `npm run -s analytics-admin -- rebuild --org <id>` (the built command line)', async () => {
  const org = await history();
  const before = await state(org);
  await damage(org);
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'rebuild', '--org', org], {
    env: { ...process.env, DATABASE_URL: analytics.database().databaseUrl, DB_SCHEMA: analytics.database().schema },
  });
  expect(JSON.parse(stdout)).toEqual({
    organization: org,
    events: 8,
    activities: 7,
    account_activities: before.accountActivities.length,
  });
  expect(await state(org)).toEqual(before);
});
