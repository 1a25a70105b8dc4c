/**
 * Events of different streams arrive in any order (docs/analytics.md): a card payment before its
 * invoice's issue, a churn reason's name after the cancellation naming it. And what analytics
 * publishes: one activity.created per activity recorded, none from a rebuild's replay.
 */
import { randomUUID } from 'node:crypto';
import { decodeEnvelope, type EventEnvelope } from '@billing/events';
import { activityEventsV1 } from '@billing/proto';
import { expect, it } from 'vitest';
import {
  handleAccountsEvent,
  handleInvoiceEvent,
  handlePaymentEvent,
  handleSubscriptionsEvent,
} from '../src/events/consumers.js';
import { rebuildOrganization } from '../src/use-cases/rebuild.js';
import { useAnalyticsService } from './support/analytics-service.js';
import {
  accountCreated,
  churnReasonChanged,
  invoiceIssued,
  organizationCreated,
  type PricingInput,
  paymentSucceeded,
  planCreated,
  subscriptionChanged,
} from './support/events.js';

const analytics = useAnalyticsService();
const orm = () => analytics.service().orm;
const apply = (envelope: EventEnvelope, handle = handleSubscriptionsEvent) => analytics.apply(envelope, handle);

const TERMS = 'bbbbbbbb-0000-4000-8000-000000000002';
const PLAN = 'aaaaaaaa-0000-4000-8000-000000000002';
const price = (status: string, quantity: number): PricingInput => ({
  terms: TERMS,
  plan: PLAN,
  status,
  quantity,
  unit_price: '100',
});

async function organization() {
  const org = randomUUID();
  const account = randomUUID();
  await apply(organizationCreated(org), handleAccountsEvent);
  await apply(accountCreated(org, account, 'acme', 'Acme ApS'), handleAccountsEvent);
  await apply(planCreated(org, PLAN, 'Pro', [{ uuid: TERMS, code: 'pro-monthly' }]));
  return { org, account };
}

async function started(org: string, account: string) {
  const subscription = randomUUID();
  await apply(
    subscriptionChanged({
      organizationId: org,
      subscription,
      account,
      version: 1,
      change: 'activated',
      at: '2026-01-15T09:00:00Z',
      status: 'active',
      old: price('scheduled', 2),
      new: price('active', 2),
    }),
  );
  return subscription;
}

const invoiceActivities = (org: string) =>
  orm()
    .em.fork()
    .execute(
      `select type, subscription_id as subscription, invoice_id as invoice,
              to_char(date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as date
         from activity where organization_id = ? and invoice_id is not null order by seq`,
      [org],
    );

/** The organization's events in analytics' outbox, in the order written. */
const published = async (org: string) => {
  const rows = await orm()
    .em.fork()
    .execute<Array<{ subject: string; payload: Buffer }>>('select subject, payload from outbox order by position');
  return rows
    .map((row) => ({ subject: row.subject, envelope: decodeEnvelope(row.payload) }))
    .filter(({ envelope }) => envelope.organization_id === org);
};

it('a payment that arrives before its invoice was issued names the subscription once the issue arrives', async () => {
  const { org, account } = await organization();
  const subscription = await started(org, account);
  const invoice = { uuid: randomUUID(), account, subscription };
  await apply(paymentSucceeded(org, invoice, '2026-01-15T09:05:00Z'), handlePaymentEvent);
  expect(await invoiceActivities(org)).toEqual([
    { type: 'payment_made', subscription: null, invoice: invoice.uuid, date: '2026-01-15T09:05' },
  ]);
  await apply(invoiceIssued(org, invoice, '2026-01-15T09:00:00Z'), handleInvoiceEvent);
  expect(await invoiceActivities(org)).toEqual([
    { type: 'payment_made', subscription, invoice: invoice.uuid, date: '2026-01-15T09:05' },
    { type: 'invoice_sent', subscription, invoice: invoice.uuid, date: '2026-01-15T09:00' },
  ]);
  // In the usual order the payment takes the subscription from the invoice's activity at once.
  const second = { uuid: randomUUID(), account, subscription };
  await apply(invoiceIssued(org, second, '2026-02-15T09:00:00Z'), handleInvoiceEvent);
  await apply(paymentSucceeded(org, second, '2026-02-15T09:00:00Z'), handlePaymentEvent);
  expect((await invoiceActivities(org)).slice(2)).toEqual([
    { type: 'invoice_sent', subscription, invoice: second.uuid, date: '2026-02-15T09:00' },
    { type: 'payment_made', subscription, invoice: second.uuid, date: '2026-02-15T09:00' },
  ]);
});

it("a churn reason's name that arrives after the cancellation (or changes) names the churn", async () => {
  const { org, account } = await organization();
  const subscription = await started(org, account);
  const reason = randomUUID();
  await apply(
    subscriptionChanged({
      organizationId: org,
      subscription,
      account,
      version: 2,
      change: 'cancelled',
      cancellationType: 'today',
      at: '2026-01-25T09:00:00Z',
      status: 'expired',
      old: price('active', 2),
      new: price('expired', 2),
      churnReason: reason,
      customChurnReason: 'Moved away',
    }),
  );
  const churns = async () =>
    (
      await orm()
        .em.fork()
        .execute<Array<{ churn_reason: string }>>(
          `select churn_reason from account_activity where organization_id = ? and type = 'churn'`,
          [org],
        )
    ).map((row) => row.churn_reason);
  // Until the reason's name is known the custom reason stands in.
  expect(await churns()).toEqual(['Moved away']);
  await apply(churnReasonChanged(org, reason, 'Too expensive'), handleAccountsEvent);
  expect(await churns()).toEqual(['Too expensive']);
  await apply(churnReasonChanged(org, reason, 'Price', 'churn_reason.updated'), handleAccountsEvent);
  expect(await churns()).toEqual(['Price']);
  // A rebuild derives it again from the names known.
  await rebuildOrganization(orm(), org);
  expect(await churns()).toEqual(['Price']);
});

it('publishes activity.created once per recorded activity, and nothing from a rebuild', async () => {
  const { org, account } = await organization();
  const subscription = await started(org, account);
  await apply(
    subscriptionChanged({
      organizationId: org,
      subscription,
      account,
      version: 2,
      change: 'cancellation_scheduled',
      cancellationType: 'at_renewal',
      at: '2026-02-15T09:00:00Z',
      occurredAt: '2026-01-21T09:00:00Z',
      status: 'not_renewing',
      cancelAt: '2026-02-15T09:00:00Z',
      old: price('active', 2),
      new: price('not_renewing', 2),
    }),
  );
  // The planned churn's moment: the same activity completes, no new one.
  await apply(
    subscriptionChanged({
      organizationId: org,
      subscription,
      account,
      version: 3,
      change: 'expired',
      at: '2026-02-15T09:00:00Z',
      status: 'expired',
      old: price('not_renewing', 2),
      new: price('expired', 2),
    }),
  );
  const events = (await published(org)).map(({ subject, envelope }) => {
    const { activity, plans } = activityEventsV1.ActivityChanged.decode(envelope.payload);
    return {
      subject,
      type: activity!.type,
      date: activity!.date!.toISOString(),
      new_mrr: activity!.new_mrr,
      company_name: activity!.company_name,
      plans: plans.map((plan) => [plan.uuid, plan.name, plan.code, plan.vat_type]),
    };
  });
  const plans = [[PLAN, 'Pro', 'pro', '']];
  expect(events).toEqual([
    {
      subject: 'analytics.activity.created',
      type: 'new',
      date: '2026-01-15T09:00:00.000Z',
      new_mrr: '200.00',
      company_name: 'Acme ApS',
      plans,
    },
    {
      subject: 'analytics.activity.created',
      type: 'cancel',
      date: '2026-02-15T09:00:00.000Z',
      new_mrr: '0.00',
      company_name: 'Acme ApS',
      plans,
    },
  ]);
  await rebuildOrganization(orm(), org);
  expect(await published(org)).toHaveLength(2);
});
