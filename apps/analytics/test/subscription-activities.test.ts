/**
 * subscription.changed → activities, account activities and the MRR totals, through the consumer's
 * handler and inbox (handleEventOnce) against a real, migrated analytics schema.
 */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import { expect, it } from 'vitest';
import { handleAccountsEvent, handleSubscriptionsEvent } from '../src/events/consumers.js';
import { useAnalyticsService } from './support/analytics-service.js';
import {
  accountCreated,
  type ChangeInput,
  organizationCreated,
  type PricingInput,
  planCreated,
  subscriptionChanged,
} from './support/events.js';

const analytics = useAnalyticsService();
const service = {
  get orm() {
    return analytics.service().orm;
  },
};
const apply = (envelope: EventEnvelope, handle = handleSubscriptionsEvent) => analytics.apply(envelope, handle);

const activities = (organizationId: string) =>
  service.orm.em.fork().execute(
    `select type, to_char(date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as date, old_mrr, new_mrr, mrr_change,
            old_mrr_in_subscription_currency::float8::text as old_exact, new_mrr_in_subscription_currency::float8::text as new_exact,
            is_churn, planned, deleted or dropped as deleted
       from activity where organization_id = ? order by date, seq`,
    [organizationId],
  );
const accountActivities = (organizationId: string) =>
  service.orm.em.fork().execute(
    `select type, to_char(date at time zone 'UTC', 'YYYY-MM-DD') as date, old_mrr, new_mrr, mrr_change, churn_reason, deleted or dropped as deleted
       from account_activity where organization_id = ? order by date, seq`,
    [organizationId],
  );
const totals = async (organizationId: string) =>
  (
    await service.orm.em
      .fork()
      .execute(
        'select total_mrr, future_mrr, pending_mrr, subscriptions_count from mrr_totals where organization_id = ?',
        [organizationId],
      )
  )[0];

async function setUp(rates: Array<{ currency: string; rate: string; valid_from: string }> = []) {
  const org = randomUUID();
  const account = randomUUID();
  await apply(organizationCreated(org, 'DKK', rates), handleAccountsEvent);
  await apply(accountCreated(org, account, 'acme', 'Acme ApS'), handleAccountsEvent);
  await apply(
    planCreated(org, 'aaaaaaaa-0000-4000-8000-000000000001', 'Pro', [
      { uuid: 'bbbbbbbb-0000-4000-8000-000000000001', code: 'pro-monthly' },
    ]),
  );
  let version = 0;
  const subscription = randomUUID();
  const change = (input: Omit<ChangeInput, 'organizationId' | 'subscription' | 'account' | 'version'>) =>
    apply(subscriptionChanged({ organizationId: org, subscription, account, version: ++version, ...input }));
  return { org, account, subscription, change };
}

const price = (
  status: string,
  quantity: number,
  unit_price = '100',
  extra: Partial<PricingInput> = {},
): PricingInput => ({
  terms: 'bbbbbbbb-0000-4000-8000-000000000001',
  plan: 'aaaaaaaa-0000-4000-8000-000000000001',
  status,
  quantity,
  unit_price,
  ...extra,
});

it('a subscription started, raised, cancelled at renewal, reactivated and cancelled today', async () => {
  const { org, change } = await setUp();
  await change({
    change: 'created',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: null,
    new: price('scheduled', 2),
  });
  await change({
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: price('scheduled', 2),
    new: price('active', 2),
  });
  await change({
    change: 'changed',
    changeType: 'immediate',
    at: '2026-01-20T09:00:00Z',
    status: 'active',
    old: price('active', 2),
    new: price('active', 3),
  });
  expect(await totals(org)).toEqual({
    total_mrr: '300.00',
    future_mrr: '300.00',
    pending_mrr: '0.00',
    subscriptions_count: 1,
  });

  await change({
    change: 'cancellation_scheduled',
    cancellationType: 'at_renewal',
    at: '2026-02-15T09:00:00Z',
    occurredAt: '2026-01-21T09:00:00Z',
    status: 'not_renewing',
    cancelAt: '2026-02-15T09:00:00Z',
    old: price('active', 3),
    new: price('not_renewing', 3),
  });
  expect(await totals(org)).toEqual({
    total_mrr: '300.00',
    future_mrr: '0.00',
    pending_mrr: '0.00',
    subscriptions_count: 1,
  });
  expect((await activities(org)).map((a) => [a.type, a.date, a.planned, a.deleted])).toEqual([
    ['new', '2026-01-15T09:00', false, false],
    ['upgrade_qty', '2026-01-20T09:00', false, false],
    ['cancel', '2026-02-15T09:00', true, false],
  ]);
  // Reactivated before the renewal: the planned churn is dropped.
  await change({
    change: 'reactivated',
    at: '2026-01-22T09:00:00Z',
    status: 'active',
    old: price('not_renewing', 3),
    new: price('active', 3),
  });
  await change({
    change: 'cancelled',
    cancellationType: 'today',
    at: '2026-01-25T09:00:00Z',
    status: 'expired',
    old: price('active', 3),
    new: price('expired', 3),
    customChurnReason: 'Too dear',
  });

  expect(await activities(org)).toEqual([
    {
      type: 'new',
      date: '2026-01-15T09:00',
      old_mrr: '0.00',
      new_mrr: '200.00',
      mrr_change: '200.00',
      old_exact: '0',
      new_exact: '200',
      is_churn: false,
      planned: false,
      deleted: false,
    },
    {
      type: 'upgrade_qty',
      date: '2026-01-20T09:00',
      old_mrr: '200.00',
      new_mrr: '300.00',
      mrr_change: '100.00',
      old_exact: '200',
      new_exact: '300',
      is_churn: false,
      planned: false,
      deleted: false,
    },
    {
      type: 'cancel',
      date: '2026-01-25T09:00',
      old_mrr: '300.00',
      new_mrr: '0.00',
      mrr_change: '-300.00',
      old_exact: '300',
      new_exact: '0',
      is_churn: true,
      planned: false,
      deleted: false,
    },
    {
      type: 'cancel',
      date: '2026-02-15T09:00',
      old_mrr: '300.00',
      new_mrr: '0.00',
      mrr_change: '-300.00',
      old_exact: '300',
      new_exact: '0',
      is_churn: true,
      planned: false,
      deleted: true,
    },
  ]);
  expect(await accountActivities(org)).toEqual([
    {
      type: 'new_business',
      date: '2026-01-15',
      old_mrr: '0.00',
      new_mrr: '200.00',
      mrr_change: '200.00',
      churn_reason: '',
      deleted: false,
    },
    {
      type: 'expansion',
      date: '2026-01-20',
      old_mrr: '200.00',
      new_mrr: '300.00',
      mrr_change: '100.00',
      churn_reason: '',
      deleted: false,
    },
    {
      type: 'churn',
      date: '2026-01-25',
      old_mrr: '300.00',
      new_mrr: '0.00',
      mrr_change: '-300.00',
      churn_reason: 'Too dear',
      deleted: false,
    },
    {
      type: 'churn',
      date: '2026-02-15',
      old_mrr: '300.00',
      new_mrr: '0.00',
      mrr_change: '-300.00',
      churn_reason: '',
      deleted: true,
    },
  ]);
  expect(await totals(org)).toEqual({
    total_mrr: '0.00',
    future_mrr: '0.00',
    pending_mrr: '0.00',
    subscriptions_count: 0,
  });
});

it('a redelivered event has no second effect', async () => {
  const { org, account, subscription } = await setUp();
  const envelope = subscriptionChanged({
    organizationId: org,
    subscription,
    account,
    version: 1,
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: price('scheduled', 2),
    new: price('active', 2),
  });
  expect(await apply(envelope)).toBe(true);
  expect(await apply(envelope)).toBe(false);
  expect((await activities(org)).map((a) => a.type)).toEqual(['new']);
  expect(await totals(org)).toEqual({
    total_mrr: '200.00',
    future_mrr: '200.00',
    pending_mrr: '0.00',
    subscriptions_count: 1,
  });
});

it('a EUR subscription is converted at the rate of its latest renewal, with currency_exchange before renew', async () => {
  const { org, change } = await setUp([
    { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
    { currency: 'EUR', rate: '7.46', valid_from: '2026-02-01' },
  ]);
  const eur = (status: string) => price(status, 1, '100', { currency: 'EUR' });
  await change({
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: eur('scheduled'),
    new: eur('active'),
  });
  await change({
    change: 'renewed',
    at: '2026-02-15T09:00:00Z',
    status: 'active',
    old: eur('active'),
    new: eur('active'),
  });
  expect(
    (await activities(org)).map((a) => [a.type, a.old_mrr, a.new_mrr, a.mrr_change, a.old_exact, a.new_exact]),
  ).toEqual([
    ['new', '0.00', '745.00', '745.00', '0', '100'],
    ['currency_exchange', '745.00', '746.00', '1.00', '100', '100'],
    ['renew', '746.00', '746.00', '0.00', '100', '100'],
  ]);
  expect(await totals(org)).toEqual({
    total_mrr: '746.00',
    future_mrr: '746.00',
    pending_mrr: '0.00',
    subscriptions_count: 1,
  });
  expect((await accountActivities(org)).map((a) => [a.type, a.old_mrr, a.new_mrr])).toEqual([
    ['new_business', '0.00', '745.00'],
    ['expansion', '745.00', '746.00'],
  ]);
});

it('cancel_invalid marks every activity of the subscription deleted and records no churn', async () => {
  const { org, change } = await setUp();
  await change({
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: price('scheduled', 2),
    new: price('active', 2),
  });
  await change({
    change: 'cancelled',
    cancellationType: 'cancel_invalid',
    at: '2026-01-16T09:00:00Z',
    status: 'expired',
    old: price('active', 2),
    new: price('expired', 2),
  });
  expect((await activities(org)).map((a) => [a.type, a.deleted])).toEqual([['new', true]]);
  expect((await accountActivities(org)).map((a) => [a.type, a.deleted])).toEqual([['new_business', true]]);
  expect(await totals(org)).toEqual({
    total_mrr: '0.00',
    future_mrr: '0.00',
    pending_mrr: '0.00',
    subscriptions_count: 0,
  });
});

it('an event of an organization not known yet is retried (transient), not lost', async () => {
  const org = randomUUID();
  const envelope = subscriptionChanged({
    organizationId: org,
    subscription: randomUUID(),
    account: randomUUID(),
    version: 1,
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: price('scheduled', 1),
    new: price('active', 1),
  });
  await expect(apply(envelope)).rejects.toMatchObject({ reason: 'ORGANIZATION_NOT_KNOWN_YET', code: 14 });
  await apply(organizationCreated(org), handleAccountsEvent);
  expect(await apply(envelope)).toBe(true);
  expect((await activities(org)).map((a) => a.type)).toEqual(['new']);
});
