/**
 * The invoices and payments consumers apply a batch of events with a handful of statements
 * (handleBatch); a failed batch is retried one by one (handle), so both must end the same. The
 * same events, in the same order, are given to two analytics schemas: to one in batches as the
 * consumers' handleBatch gets them, to the other one by one. The activities, the journal, the
 * activity.created events and the inbox end equal, but for the activities' and events' own ids.
 */
import { randomUUID } from 'node:crypto';
import { decodeEnvelope, type EventEnvelope, handleEventOnce, handleEventsOnce } from '@billing/events';
import { activityEventsV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { expect, it } from 'vitest';
import {
  handleAccountsEvent,
  handleInvoiceEvent,
  handleInvoiceEventAlone,
  handlePaymentEvent,
  handlePaymentEventAlone,
  handleSubscriptionsEvent,
  handleSubscriptionsEventAlone,
} from '../src/events/consumers.js';
import {
  handleInvoiceEvents,
  handlePaymentEvents,
  recordInvoiceActivityEvents,
} from '../src/events/invoice-activity-batch.js';
import { rebuildOrganization } from '../src/use-cases/rebuild.js';
import { useAnalyticsService } from './support/analytics-service.js';
import {
  accountCreated,
  invoiceChanged,
  organizationCreated,
  type PricingInput,
  paymentSucceeded,
  planCreated,
  subscriptionChanged,
} from './support/events.js';

const oneByOne = useAnalyticsService();
const batched = useAnalyticsService();
/** Each event as the consumers handle a message that comes alone (a batch of one). */
const alone = useAnalyticsService();

type Handle = (em: EntityManager, envelope: EventEnvelope) => Promise<void>;
type HandleBatch = (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>;

const PLAN = 'aaaaaaaa-0000-4000-8000-000000000002';
const TERMS = 'bbbbbbbb-0000-4000-8000-000000000002';
const price = (status: string): PricingInput => ({ terms: TERMS, plan: PLAN, status, quantity: 1, unit_price: '100' });

/** The same envelopes applied to every schema one by one (what all start from). */
async function everywhere(consumer: string, handle: Handle, envelopes: EventEnvelope[]) {
  for (const service of [oneByOne, batched, alone])
    for (const envelope of envelopes)
      await handleEventOnce(
        { orm: service.service().orm, consumer },
        envelope,
        service === alone ? aloneHandler(handle) : handle,
      );
}

/** The consumers' handler of a message that comes alone, by the one-by-one handler it stands for. */
const ALONE = new Map<Handle, Handle>([
  [handleInvoiceEvent, handleInvoiceEventAlone],
  [handlePaymentEvent, handlePaymentEventAlone],
  [handleSubscriptionsEvent, handleSubscriptionsEventAlone],
]);
const aloneHandler = (handle: Handle): Handle => ALONE.get(handle) ?? handle;

/**
 * A consumer's batch: to one schema one by one (`handle`), to another as one batch (`handleBatch`),
 * to the third each alone as the consumer handles a message that comes by itself.
 */
async function batch(consumer: string, handle: Handle, handleBatch: HandleBatch, envelopes: EventEnvelope[]) {
  for (const envelope of envelopes) await handleEventOnce({ orm: oneByOne.service().orm, consumer }, envelope, handle);
  for (const envelope of envelopes)
    await handleEventOnce({ orm: alone.service().orm, consumer }, envelope, aloneHandler(handle));
  return handleEventsOnce({ orm: batched.service().orm, consumer }, envelopes, handleBatch);
}

function organization(name: string) {
  const org = randomUUID();
  const account = randomUUID();
  return {
    org,
    account,
    setup: [organizationCreated(org), accountCreated(org, account, name, `${name} ApS`)],
    plan: planCreated(org, PLAN, 'Pro', [{ uuid: TERMS, code: 'pro-monthly' }]),
  };
}

function started(org: string, account: string, subscription: string) {
  return subscriptionChanged({
    organizationId: org,
    subscription,
    account,
    version: 1,
    change: 'activated',
    at: '2026-01-15T09:00:00Z',
    status: 'active',
    old: price('scheduled'),
    new: price('active'),
  });
}

interface ActivityRow extends Record<string, unknown> {
  id: string;
  organization_id: string;
  invoice_id: string | null;
  subscription_id: string | null;
  type: string;
  dropped: boolean;
}

/** Everything the two paths wrote, the activities' ids replaced by their recording rank. */
async function written(service: typeof oneByOne, organizations: string[]) {
  const em = service.service().orm.em.fork();
  const activities = await em.execute<ActivityRow[]>(
    `select id, organization_id, account_id, subscription_id, invoice_id, type, date, created_date, updated_date,
            is_manual, is_churn, deleted, dropped, planned, plan_key, old_currency, new_currency,
            old_mrr_in_subscription_currency, new_mrr_in_subscription_currency, old_mrr, new_mrr, mrr_change,
            old_quantity, new_quantity, old_terms, new_terms, old_plan, new_plan, churn_reason, custom_churn_reason
       from activity where organization_id in (?, ?) order by seq`,
    organizations,
  );
  const rank = new Map(activities.map((row, index) => [row.id, `activity #${index + 1}`]));
  const journal = await em.execute(
    `select event_id, organization_id, event_type, payload_type, occurred_at, payload
       from event_log where organization_id in (?, ?) order by position`,
    organizations,
  );
  const outbox = await em.execute<Array<{ subject: string; payload: Buffer; created_at: Date; traceparent: unknown }>>(
    'select subject, payload, created_at, published_at, attempts, last_error, traceparent from outbox order by position',
  );
  const inbox = await em.execute('select consumer, message_id from inbox order by consumer, message_id');
  return {
    activities: activities.map((row) => ({ ...row, id: rank.get(row.id) })),
    journal,
    published: outbox.map(({ payload, ...row }) => {
      const { event_id: _ownId, aggregate_id, payload: event, ...envelope } = decodeEnvelope(payload);
      const { activity, plans } = activityEventsV1.ActivityChanged.decode(event);
      return {
        ...row,
        ...envelope,
        aggregate_id: rank.get(aggregate_id),
        activity: { ...activity, uuid: rank.get(activity!.uuid) },
        plans,
      };
    }),
    inbox,
  };
}

it('a batch of invoice and payment events ends as the same events applied one by one', async () => {
  const a = organization('acme');
  const b = organization('bolt');
  const [s1, invalid, s3] = [randomUUID(), randomUUID(), randomUUID()];
  await everywhere('accounts', handleAccountsEvent, [...a.setup, ...b.setup]);
  await everywhere('subscriptions', handleSubscriptionsEvent, [
    a.plan,
    b.plan,
    started(a.org, a.account, s1),
    started(a.org, a.account, invalid),
    started(b.org, b.account, s3),
    subscriptionChanged({
      organizationId: a.org,
      subscription: invalid,
      account: a.account,
      version: 2,
      change: 'cancelled',
      cancellationType: 'cancel_invalid',
      at: '2026-01-16T09:00:00Z',
      status: 'expired',
      old: price('active'),
      new: price('expired'),
    }),
  ]);
  const invoice = (org: { account: string }, subscription: string | null) => ({
    uuid: randomUUID(),
    account: org.account,
    subscription,
  });
  const [i1, i2, i3, i4, i5, i6, i7] = [
    invoice(a, s1),
    invoice(a, s1),
    invoice(a, s1),
    invoice(a, invalid),
    invoice(b, s3),
    invoice(b, s3),
    invoice(a, null),
  ];
  type Invoice = { uuid: string; account: string; subscription: string | null };
  const issued = (org: string, i: Invoice, at: string) => invoiceChanged('invoice.issued', org, i, at);
  const paid = (org: string, i: Invoice, at: string) => invoiceChanged('invoice.paid', org, i, at);
  // Before the batches: i1 issued; i2's payment arrived before its issue (no subscription yet).
  const i1Issued = issued(a.org, i1, '2026-02-01T09:00:00Z');
  await everywhere('invoices', handleInvoiceEvent, [i1Issued]);
  await everywhere('payments', handlePaymentEvent, [paymentSucceeded(a.org, i2, '2026-02-01T09:30:00Z')]);

  const i3Issued = issued(a.org, i3, '2026-02-02T09:00:00Z');
  const invoicesBatch = [
    issued(a.org, i2, '2026-02-01T09:00:00Z'),
    paid(a.org, i1, '2026-02-02T08:00:00Z'),
    i3Issued,
    paid(a.org, i3, '2026-02-02T10:00:00Z'),
    issued(a.org, i4, '2026-02-02T11:00:00Z'),
    issued(b.org, i5, '2026-02-02T12:00:00Z'),
    invoiceChanged('invoice.created', a.org, i4, '2026-02-02T11:00:00Z'),
    issued(a.org, i7, '2026-02-02T13:00:00Z'),
    i3Issued,
    i1Issued,
  ];
  const fresh = await batch('invoices', handleInvoiceEvent, handleInvoiceEvents, invoicesBatch);
  // The consumer gives handleBatch each new event once: the duplicate and the redelivery are left out.
  expect(fresh.map((envelope) => envelope.event_id)).toEqual(invoicesBatch.slice(0, 8).map((e) => e.event_id));

  const p1 = paymentSucceeded(a.org, i1, '2026-02-03T09:00:00Z');
  await batch('payments', handlePaymentEvent, handlePaymentEvents, [
    p1,
    paymentSucceeded(a.org, i3, '2026-02-03T09:01:00Z'),
    paymentSucceeded(b.org, i6, '2026-02-03T09:02:00Z'),
    paymentSucceeded(a.org, i4, '2026-02-03T09:03:00Z'),
    paymentSucceeded(a.org, i7, '2026-02-03T09:04:00Z'),
    p1,
  ]);
  // i6's payment came before its issue; i7's invoice names no subscription, nor do its activities.
  await batch('invoices', handleInvoiceEvent, handleInvoiceEvents, [
    issued(b.org, i6, '2026-02-03T08:00:00Z'),
    paid(b.org, i6, '2026-02-03T09:02:00Z'),
    paid(a.org, i7, '2026-02-04T09:00:00Z'),
  ]);
  // Any mix (not what a consumer gets): a payment between its invoice's events in one batch.
  const i8 = invoice(a, null);
  const i9 = invoice(a, s1);
  const i10 = invoice(a, s1);
  const i11 = invoice(a, invalid);
  // Ids in capitals are the same uuids to Postgres: i10's payment (its organization in capitals
  // too) finds its issue's subscription; i11's activity is dropped, as its subscription's.
  const shouted = { uuid: i10.uuid.toUpperCase(), account: a.account.toUpperCase(), subscription: s1.toUpperCase() };
  const mixed = [
    paymentSucceeded(a.org, i9, '2026-02-05T09:00:00Z'),
    issued(a.org, i8, '2026-02-05T09:01:00Z'),
    paymentSucceeded(a.org, i8, '2026-02-05T09:02:00Z'),
    paid(a.org, { ...i8, subscription: s1 }, '2026-02-05T09:03:00Z'),
    issued(a.org, i9, '2026-02-05T09:04:00Z'),
    issued(a.org, i10, '2026-02-05T09:05:00Z'),
    paymentSucceeded(a.org.toUpperCase(), shouted, '2026-02-05T09:06:00Z'),
    paid(a.org, shouted, '2026-02-05T09:07:00Z'),
    issued(a.org.toUpperCase(), { ...i11, subscription: invalid.toUpperCase() }, '2026-02-05T09:08:00Z'),
  ];
  for (const service of [oneByOne, alone])
    for (const envelope of mixed) {
      const handle = envelope.event_type === 'payment.succeeded' ? handlePaymentEvent : handleInvoiceEvent;
      await handleEventOnce(
        { orm: service.service().orm, consumer: 'mixed' },
        envelope,
        service === alone ? aloneHandler(handle) : handle,
      );
    }
  await handleEventsOnce({ orm: batched.service().orm, consumer: 'mixed' }, mixed, recordInvoiceActivityEvents);

  const expected = await written(oneByOne, [a.org, b.org]);
  const actual = await written(batched, [a.org, b.org]);
  expect(actual).toEqual(expected);
  expect(await written(alone, [a.org, b.org])).toEqual(expected);

  // And what both made is what gaps.md §8 says (so they are not equally wrong).
  const name = new Map<string | null, string>([
    [null, '-'],
    [s1, 's1'],
    [invalid, 'invalid'],
    [s3, 's3'],
    ...[i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11].map((i, n): [string, string] => [i.uuid, `i${n + 1}`]),
  ]);
  const invoiceActivities = actual.activities
    .filter((row) => row.invoice_id !== null)
    .map((row) => [row.type, name.get(row.invoice_id), name.get(row.subscription_id), row.dropped].join(' '));
  expect(invoiceActivities).toEqual([
    'invoice_sent i1 s1 false',
    'payment_made i2 s1 false',
    'invoice_sent i2 s1 false',
    'invoice_paid i1 s1 false',
    'invoice_sent i3 s1 false',
    'invoice_paid i3 s1 false',
    'invoice_sent i4 invalid true',
    'invoice_sent i5 s3 false',
    'invoice_sent i7 - false',
    'payment_made i1 s1 false',
    'payment_made i3 s1 false',
    'payment_made i6 s3 false',
    'payment_made i4 invalid true',
    'payment_made i7 - false',
    'invoice_sent i6 s3 false',
    'invoice_paid i6 s3 false',
    'invoice_paid i7 - false',
    'payment_made i9 s1 false',
    'invoice_sent i8 - false',
    'payment_made i8 s1 false',
    'invoice_paid i8 s1 false',
    'invoice_sent i9 s1 false',
    'invoice_sent i10 s1 false',
    'payment_made i10 s1 false',
    'invoice_paid i10 s1 false',
    'invoice_sent i11 invalid true',
  ]);
  // One activity.created per activity not dropped, showing it as it was when recorded.
  const publishedInvoiceActivities = actual.published
    .filter(({ activity }) => activity.invoice)
    .map(({ activity, request_id }) => [
      activity.type,
      name.get(activity.invoice!),
      name.get(activity.subscription ?? null),
      request_id.length > 0,
    ]);
  expect(publishedInvoiceActivities.map((row) => row.join(' '))).toEqual([
    'invoice_sent i1 s1 true',
    'payment_made i2 - true',
    'invoice_sent i2 s1 true',
    'invoice_paid i1 s1 true',
    'invoice_sent i3 s1 true',
    'invoice_paid i3 s1 true',
    'invoice_sent i5 s3 true',
    'invoice_sent i7 - true',
    'payment_made i1 s1 true',
    'payment_made i3 s1 true',
    'payment_made i6 - true',
    'payment_made i7 - true',
    'invoice_sent i6 s3 true',
    'invoice_paid i6 s3 true',
    'invoice_paid i7 - true',
    'payment_made i9 - true',
    'invoice_sent i8 - true',
    'payment_made i8 - true',
    'invoice_paid i8 s1 true',
    'invoice_sent i9 s1 true',
    'invoice_sent i10 s1 true',
    'payment_made i10 s1 true',
    'invoice_paid i10 s1 true',
  ]);

  // The journal replays to the same activities.
  const before = actual.activities.map(({ id: _id, ...row }) => row);
  await rebuildOrganization(batched.service().orm, a.org);
  await rebuildOrganization(batched.service().orm, b.org);
  const rebuilt = (await written(batched, [a.org, b.org])).activities.map(({ id: _id, ...row }) => row);
  for (const org of [a.org, b.org])
    expect(rebuilt.filter((row) => row.organization_id === org)).toEqual(
      before.filter((row) => row.organization_id === org),
    );
}, 120_000);
