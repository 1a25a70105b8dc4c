/**
 * The event mappers read every id an event names in Postgres' form (canonicalUuidOrText): the
 * batches key organizations, subscriptions, accounts, invoices and churn reasons by these strings
 * in memory, where the one-by-one path lets Postgres compare uuids.
 */
import { invoiceEventsV1, subscriptionEventsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { invoiceActivityOf } from '../src/events/invoice-activity-mapper.js';
import { subscriptionChangeOf } from '../src/events/subscription-change-mapper.js';
import { invoiceChanged, paymentSucceeded, subscriptionChanged } from './support/events.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const SUBSCRIPTION = 'aaaaaaaa-1111-4000-8000-00000000000a';
const ACCOUNT = 'bbbbbbbb-2222-4000-8000-00000000000b';
const PLAN = 'cccccccc-3333-4000-8000-00000000000c';
const TERMS = 'dddddddd-4444-4000-8000-00000000000d';
const REASON = 'eeeeeeee-5555-4000-8000-00000000000e';
const INVOICE = 'ffffffff-6666-4000-8000-00000000000f';
const shout = (id: string) => id.toUpperCase();

describe('subscriptionChangeOf', () => {
  it('reads the subscription, account, plan, terms and churn reason in lower case', () => {
    const price = { terms: shout(TERMS), plan: shout(PLAN), quantity: 1, unit_price: '100' };
    const envelope = subscriptionChanged({
      organizationId: shout(ORG),
      subscription: shout(SUBSCRIPTION),
      account: `{${shout(ACCOUNT)}}`,
      version: 2,
      change: 'cancelled',
      cancellationType: 'today',
      at: '2026-03-20T09:00:00Z',
      status: 'expired',
      churnReason: shout(REASON).replaceAll('-', ''),
      old: { ...price, status: 'active' },
      new: { ...price, status: 'expired' },
    });
    const { change, record } = subscriptionChangeOf(subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload));
    expect([record.uuid, record.account, record.churn_reason, record.pricing.plan, record.pricing.terms]).toEqual([
      SUBSCRIPTION,
      ACCOUNT,
      REASON,
      PLAN,
      TERMS,
    ]);
    expect([
      change.subscription.uuid,
      change.subscription.account,
      change.subscription.churn_reason,
      change.old?.plan,
      change.old?.terms,
      change.new.plan,
      change.new.terms,
    ]).toEqual([SUBSCRIPTION, ACCOUNT, REASON, PLAN, TERMS, PLAN, TERMS]);
  });

  it('keeps text that is no uuid as it came (it fails where it did) and no churn reason as none', () => {
    const price = { terms: 'not-a-terms-id', plan: PLAN, quantity: 1, unit_price: '100' };
    const envelope = subscriptionChanged({
      organizationId: ORG,
      subscription: SUBSCRIPTION,
      account: 'Not-An-Account',
      version: 1,
      change: 'activated',
      at: '2026-03-20T09:00:00Z',
      status: 'active',
      old: null,
      new: { ...price, status: 'active' },
    });
    const { record } = subscriptionChangeOf(subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload));
    expect([record.account, record.pricing.terms, record.churn_reason]).toEqual([
      'Not-An-Account',
      'not-a-terms-id',
      null,
    ]);
  });
});

describe('invoiceActivityOf', () => {
  const invoice = { uuid: shout(INVOICE), account: shout(ACCOUNT), subscription: shout(SUBSCRIPTION) };

  it('reads an invoice event’s organization, invoice, account and subscription in lower case', () => {
    const input = invoiceActivityOf(invoiceChanged('invoice.issued', shout(ORG), invoice, '2026-02-01T09:00:00Z'));
    expect(input).toEqual({
      organizationId: ORG,
      type: 'invoice_sent',
      invoice: { uuid: INVOICE, account: ACCOUNT, subscription: SUBSCRIPTION },
      at: new Date('2026-02-01T09:00:00Z'),
    });
  });

  it('takes the subscription of the first line naming one, past the invoice’s other fields', () => {
    const payload = invoiceEventsV1.InvoiceChanged.encode(
      invoiceEventsV1.InvoiceChanged.fromPartial({
        invoice: {
          uuid: shout(INVOICE),
          invoice_number: '42',
          account: shout(ACCOUNT),
          account_code: 'acme',
          currency: 'DKK',
          collection_method: 'payment_card',
          total: '125.00',
          lines: [
            { description: 'Setup fee' },
            { description: 'Pro', subscription: '' },
            { description: 'Pro', subscription: shout(SUBSCRIPTION) },
            { description: 'Other', subscription: shout(PLAN) },
          ],
          seller: { name: 'Seller ApS', country: 'DK' },
          buyer: { name: 'Buyer A/S', country: 'DK' },
          created_date: new Date('2026-02-01T09:00:00Z'),
        },
      }),
    ).finish();
    const issued = invoiceChanged('invoice.issued', ORG, { ...invoice, subscription: null }, '2026-02-01T09:00:00Z');
    expect(invoiceActivityOf({ ...issued, payload: Buffer.from(payload) })?.invoice).toEqual({
      uuid: INVOICE,
      account: ACCOUNT,
      subscription: SUBSCRIPTION,
    });
    expect(invoiceActivityOf(issued)?.invoice.subscription).toBeNull();
    expect(() => invoiceActivityOf({ ...issued, payload: Buffer.alloc(0) })).toThrow(
      `invoice.issued ${issued.event_id} has no invoice`,
    );
  });

  it('reads a payment’s organization, invoice and account in lower case', () => {
    const input = invoiceActivityOf(paymentSucceeded(shout(ORG), invoice, '2026-02-02T09:00:00Z'));
    expect(input).toEqual({
      organizationId: ORG,
      type: 'payment_made',
      invoice: { uuid: INVOICE, account: ACCOUNT, subscription: null },
      at: new Date('2026-02-02T09:00:00Z'),
    });
  });
});
