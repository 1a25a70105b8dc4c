/**
 * subscription.changed applied in batches (the subscriptions consumer's handleBatch) ends exactly
 * as the same events applied one by one (its handle, which also retries a failed batch): the same
 * activities, account activities, MRR rows and totals, journal and activity.created outbox rows,
 * compared whole but for the ids made at random. Two services on two schemas take the same events.
 */
import { randomUUID } from 'node:crypto';
import { decodeEnvelope, type EventEnvelope } from '@billing/events';
import { activityEventsV1 } from '@billing/proto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { expect, it } from 'vitest';
import {
  handleAccountsEvent,
  handleSubscriptionsEvent,
  handleSubscriptionsEventAlone,
  handleSubscriptionsEvents,
} from '../src/events/consumers.js';
import { useAnalyticsService } from './support/analytics-service.js';
import { applyBatch } from './support/apply-batch.js';
import {
  accountCreated,
  type ChangeInput,
  churnReasonChanged,
  organizationCreated,
  type PricingInput,
  planCreated,
  subscriptionChanged,
} from './support/events.js';

const oneByOne = useAnalyticsService();
const batched = useAnalyticsService();
/** Each event as the consumer handles a message that comes alone: a batch of one. */
const alone = useAnalyticsService();

const ORG = randomUUID();
const OTHER_ORG = randomUUID();
const PLAN = randomUUID();
const TERMS = randomUUID();
const OTHER_PLAN = randomUUID();
const OTHER_TERMS = randomUUID();
const REASON = randomUUID();
const OTHER_REASON = randomUUID();
const [X, Y, Z] = [randomUUID(), randomUUID(), randomUUID()];
const [A, B, C, D, E] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const F = randomUUID();
const G = randomUUID();

const price = (status: string, quantity: number, extra: Partial<PricingInput> = {}): PricingInput => ({
  terms: TERMS,
  plan: PLAN,
  status,
  quantity,
  unit_price: '100',
  ...extra,
});
const eur = (status: string) => price(status, 1, { currency: 'EUR', unit_price: '99.5' });
const other = (status: string, quantity: number) => price(status, quantity, { plan: OTHER_PLAN, terms: OTHER_TERMS });

const versions = new Map<string, number>();
type Change = Omit<ChangeInput, 'organizationId' | 'subscription' | 'account' | 'version'>;
const change = (organizationId: string, subscription: string, account: string, input: Change) => {
  const version = (versions.get(subscription) ?? 0) + 1;
  versions.set(subscription, version);
  return subscriptionChanged({ organizationId, subscription, account, version, ...input });
};

const setup = [
  organizationCreated(ORG, 'DKK', [
    { currency: 'EUR', rate: '7.45', valid_from: '2026-01-01' },
    { currency: 'EUR', rate: '7.4612', valid_from: '2026-02-01' },
  ]),
  organizationCreated(OTHER_ORG, 'DKK'),
  accountCreated(ORG, X, 'x', 'X ApS'),
  accountCreated(ORG, Y, 'y', 'Y ApS'),
  accountCreated(OTHER_ORG, Z, 'z', 'Z ApS'),
  churnReasonChanged(ORG, REASON, 'Too dear'),
  churnReasonChanged(OTHER_ORG, OTHER_REASON, 'Moved away'),
];
const plans = [
  planCreated(ORG, PLAN, 'Pro', [{ uuid: TERMS, code: 'pro-monthly' }]),
  planCreated(OTHER_ORG, OTHER_PLAN, 'Basic', [{ uuid: OTHER_TERMS, code: 'basic-monthly' }]),
];

const activatedB = change(ORG, B, X, {
  change: 'activated',
  at: '2026-01-15T10:00:00Z',
  status: 'active',
  old: eur('scheduled'),
  new: eur('active'),
});
const renewedA = change(ORG, A, X, {
  change: 'renewed',
  at: '2026-02-15T09:00:00Z',
  status: 'active',
  old: price('active', 3),
  new: price('active', 3),
});

/** Every kind of change, the batches as a consumer might have been handed them. */
const batches: EventEnvelope[][] = [
  [
    change(ORG, A, X, {
      change: 'activated',
      at: '2026-01-15T09:00:00Z',
      status: 'active',
      old: price('scheduled', 2),
      new: price('active', 2),
    }),
    activatedB,
    // The plan renamed between two subscription changes: the later activities show the new name.
    planCreated(ORG, PLAN, 'Pro Plus', [{ uuid: TERMS, code: 'pro-monthly' }]),
    change(ORG, C, Y, {
      change: 'activated',
      at: '2026-01-16T09:00:00Z',
      status: 'active',
      old: price('scheduled', 1),
      new: price('active', 1),
    }),
    // The same subscription again in the batch.
    change(ORG, A, X, {
      change: 'changed',
      changeType: 'immediate',
      at: '2026-01-20T09:00:00Z',
      status: 'active',
      old: price('active', 2),
      new: price('active', 3),
    }),
    change(ORG, D, Y, {
      change: 'created',
      at: '2026-01-21T09:00:00Z',
      status: 'scheduled',
      startDate: '2026-03-01T00:00:00Z',
      old: null,
      new: price('scheduled', 4),
    }),
    change(OTHER_ORG, E, Z, {
      change: 'activated',
      at: '2026-01-22T09:00:00Z',
      status: 'active',
      old: other('scheduled', 1),
      new: other('active', 1),
    }),
  ],
  [
    renewedA,
    // An event analytics makes nothing of, between two changes.
    {
      ...renewedA,
      event_id: randomUUID(),
      event_type: 'charge.created',
      payload_type: 'billing.events.v1.ChargeCreated',
      payload: Buffer.alloc(0),
    },
    change(ORG, B, X, {
      change: 'renewed',
      at: '2026-02-15T10:00:00Z',
      status: 'active',
      old: eur('active'),
      new: eur('active'),
    }),
    change(OTHER_ORG, E, Z, {
      change: 'renewed',
      at: '2026-02-22T09:00:00Z',
      status: 'active',
      old: other('active', 1),
      new: other('active', 1),
    }),
    change(ORG, C, Y, {
      change: 'cancelled',
      cancellationType: 'cancel_invalid',
      at: '2026-02-16T09:00:00Z',
      status: 'expired',
      old: price('active', 1),
      new: price('expired', 1),
    }),
    // Delivered again (its first delivery was committed in the batch before).
    activatedB,
    change(ORG, A, X, {
      change: 'cancellation_scheduled',
      cancellationType: 'at_renewal',
      at: '2026-03-15T09:00:00Z',
      occurredAt: '2026-02-17T09:00:00Z',
      status: 'not_renewing',
      cancelAt: '2026-03-15T09:00:00Z',
      churnReason: REASON,
      old: price('active', 3),
      new: price('not_renewing', 3),
    }),
    change(ORG, B, X, {
      change: 'change_scheduled',
      changeType: 'at_renewal',
      at: '2026-03-15T10:00:00Z',
      occurredAt: '2026-02-18T09:00:00Z',
      status: 'active',
      scheduledAt: '2026-03-15T10:00:00Z',
      scheduled: price('active', 1, { currency: 'EUR', unit_price: '120' }),
      old: eur('active'),
      new: eur('active'),
    }),
  ],
  [
    change(ORG, D, Y, {
      change: 'activated',
      at: '2026-03-01T00:00:00Z',
      status: 'active',
      startDate: '2026-03-01T00:00:00Z',
      old: price('scheduled', 4),
      new: price('active', 4),
    }),
    change(ORG, A, X, {
      change: 'expired',
      cancellationType: 'at_renewal',
      at: '2026-03-15T09:00:00Z',
      status: 'expired',
      // In capitals: the same reason as the scheduled cancellation's.
      churnReason: REASON.toUpperCase(),
      old: price('not_renewing', 3),
      new: price('expired', 3),
    }),
    renewedA,
    change(ORG, B, X, {
      change: 'changed',
      changeType: 'at_renewal',
      at: '2026-03-15T10:00:00Z',
      status: 'active',
      old: eur('active'),
      new: price('active', 1, { currency: 'EUR', unit_price: '120' }),
    }),
    change(OTHER_ORG, E, Z, {
      change: 'cancelled',
      cancellationType: 'today',
      at: '2026-03-20T09:00:00Z',
      status: 'expired',
      // In capitals: the account's churn still shows the reason's name.
      churnReason: OTHER_REASON.toUpperCase(),
      old: other('active', 1),
      new: other('expired', 1),
    }),
    planCreated(OTHER_ORG, OTHER_PLAN, 'Basic 2', [{ uuid: OTHER_TERMS, code: 'basic-monthly' }]),
    // Arrives after a newer state of the subscription: its activity is recorded, its MRR row kept.
    subscriptionChanged({
      organizationId: OTHER_ORG,
      subscription: E,
      account: Z,
      version: 2,
      change: 'changed',
      changeType: 'immediate',
      at: '2026-02-01T09:00:00Z',
      status: 'active',
      old: other('active', 1),
      new: other('active', 2),
    }),
    // Its ids in capitals, which Postgres takes as the same uuids: the same organization and account
    // as Y's other subscriptions (an expansion, not new business), the same plan, ids shown in lower case.
    change(ORG.toUpperCase(), G.toUpperCase(), Y.toUpperCase(), {
      change: 'activated',
      at: '2026-03-21T08:00:00Z',
      status: 'active',
      old: price('scheduled', 2, { plan: PLAN.toUpperCase(), terms: TERMS.toUpperCase() }),
      new: price('active', 2, { plan: PLAN.toUpperCase(), terms: TERMS.toUpperCase() }),
    }),
    // An MRR with more decimals than the activity keeps (20), exactly half a unit of the 20th past
    // an even one: activity.created shows it as stored, rounded half away from zero (not to even).
    change(ORG, F, Y, {
      change: 'activated',
      at: '2026-03-21T09:00:00Z',
      status: 'active',
      old: price('scheduled', 1, { mrr: '33.333333333333333333325' }),
      new: price('active', 1, { mrr: '33.333333333333333333325' }),
    }),
  ],
];

/** Everything the events made in one service's schema; ids made at random replaced by their rank. */
async function state(orm: MikroORM) {
  const em = orm.em.fork();
  const activities = await em.execute<Array<Record<string, unknown>>>('select * from activity order by seq');
  const accountActivities = await em.execute<Array<Record<string, unknown>>>(
    'select * from account_activity order by seq',
  );
  const outbox = await em.execute<Array<{ subject: string; payload: Buffer; created_at: Date }>>(
    'select subject, payload, created_at from outbox order by position',
  );
  const ranks = new Map<string, string>([
    ...activities.map((row, i) => [row.id as string, `activity#${i}`] as const),
    ...accountActivities.map((row, i) => [row.id as string, `account_activity#${i}`] as const),
  ]);
  const ranked = <T>(value: T): T => {
    let json = JSON.stringify(value);
    for (const [id, rank] of ranks) json = json.replaceAll(id, rank);
    return JSON.parse(json) as T;
  };
  const withoutSeq = (rows: Array<Record<string, unknown>>) => rows.map(({ seq: _seq, ...row }) => row);
  return ranked({
    activities: withoutSeq(activities),
    accountActivities: withoutSeq(accountActivities),
    subscriptions: await em.execute('select * from subscription_mrr order by id'),
    totals: await em.execute('select * from mrr_totals order by organization_id'),
    journal: await em.execute(
      'select event_id, organization_id, event_type, payload_type, occurred_at, payload from event_log order by position',
    ),
    outbox: outbox.map((row) => {
      const { event_id: _random, payload, ...envelope } = decodeEnvelope(row.payload);
      return {
        subject: row.subject,
        created_at: row.created_at,
        envelope,
        payload: activityEventsV1.ActivityChanged.decode(payload),
      };
    }),
  });
}

it('a batch of subscription changes ends exactly as the same changes applied one by one', async () => {
  for (const service of [oneByOne, batched, alone]) {
    for (const envelope of setup) await service.apply(envelope, handleAccountsEvent);
    for (const envelope of plans) await service.apply(envelope, handleSubscriptionsEvent);
  }
  for (const batch of batches) {
    for (const envelope of batch) await oneByOne.apply(envelope, handleSubscriptionsEvent);
    await applyBatch(batched.service().orm, 'test', batch, handleSubscriptionsEvents);
    for (const envelope of batch) await alone.apply(envelope, handleSubscriptionsEventAlone);
  }

  const expected = await state(oneByOne.service().orm);
  // What one by one made (so the comparison below is not of two empty sets).
  expect(expected.activities.map((a) => [a.subscription_id, a.type, a.planned, a.dropped])).toEqual([
    [A, 'new', false, false],
    [B, 'new', false, false],
    [C, 'new', false, true],
    [A, 'upgrade_qty', false, false],
    [D, 'new', false, false],
    [E, 'new', false, false],
    [A, 'renew', false, false],
    [B, 'currency_exchange', false, false],
    [B, 'renew', false, false],
    [E, 'renew', false, false],
    [A, 'cancel', false, false],
    [B, 'upgrade_subscription', false, false],
    [E, 'cancel', false, false],
    [E, 'upgrade_qty', false, false],
    [G, 'new', false, false],
    [F, 'new', false, false],
  ]);
  expect(expected.accountActivities.map((a) => [a.account_id, a.type, a.dropped])).toEqual([
    [X, 'new_business', false],
    [X, 'expansion', false],
    [Y, 'new_business', true],
    [X, 'expansion', false],
    [Y, 'new_business', false],
    [Z, 'new_business', false],
    [X, 'expansion', false],
    [X, 'contraction', false],
    [X, 'expansion', false],
    [Z, 'churn', false],
    [Z, 'expansion', false],
    [Z, 'contraction', false],
    [Y, 'expansion', false],
    [Y, 'expansion', false],
  ]);
  expect(
    expected.accountActivities.filter((a) => a.churn_reason !== '').map((a) => [a.account_id, a.type, a.churn_reason]),
  ).toEqual([[Z, 'churn', 'Moved away']]);
  expect(expected.journal).toHaveLength(19);
  expect(expected.outbox).toHaveLength(16);
  // activity.created embeds the plans, with the name they had when the activity was recorded.
  expect(expected.outbox.map(({ payload }) => payload.plans.map((plan) => plan.name).join('/'))).toEqual([
    'Pro',
    'Pro',
    'Pro Plus',
    'Pro Plus',
    'Pro Plus',
    'Basic',
    'Pro Plus',
    'Pro Plus',
    'Pro Plus',
    'Basic',
    'Pro Plus',
    'Pro Plus',
    'Basic',
    'Basic 2',
    'Pro Plus',
    'Pro Plus',
  ]);
  const last = expected.outbox.at(-1)!.payload.activity!;
  expect([last.subscription, last.account_uuid, last.new_mrr_in_subscription_currency, last.new_mrr]).toEqual([
    F,
    Y,
    '33.33333333333333333333',
    '33.33',
  ]);

  expect(await state(batched.service().orm)).toEqual(expected);
  expect(await state(alone.service().orm)).toEqual(expected);
});

it('a batch with an organization not known yet fails as a whole (retried one by one), leaving nothing', async () => {
  const unknown = randomUUID();
  const known = change(ORG, randomUUID(), Y, {
    change: 'activated',
    at: '2026-04-01T09:00:00Z',
    status: 'active',
    old: price('scheduled', 1),
    new: price('active', 1),
  });
  const early = change(unknown, randomUUID(), randomUUID(), {
    change: 'activated',
    at: '2026-04-01T09:00:00Z',
    status: 'active',
    old: price('scheduled', 1),
    new: price('active', 1),
  });
  const before = await state(batched.service().orm);
  await expect(
    applyBatch(batched.service().orm, 'test', [known, early], handleSubscriptionsEvents),
  ).rejects.toMatchObject({ reason: 'ORGANIZATION_NOT_KNOWN_YET', code: 14 });
  expect(await state(batched.service().orm)).toEqual(before);
});
