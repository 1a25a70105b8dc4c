import { describe, expect, it } from 'vitest';
import {
  type InvoiceActivityInput,
  type InvoiceActivityType,
  invoiceActivityRounds,
  invoiceKey,
  paymentInvoices,
  planInvoiceActivities,
  subscriptionsToCheck,
} from './invoice-activities.js';

const at = new Date('2026-01-15T09:00:00Z');
const input = (
  type: InvoiceActivityType,
  invoice: string,
  subscription: string | null = null,
  organizationId = 'org',
): InvoiceActivityInput => ({ organizationId, type, invoice: { uuid: invoice, account: 'acc', subscription }, at });
const none = { firstSubscription: new Map<string, string | null>(), invalid: new Set<string>() };
const decided = (round: InvoiceActivityInput[], stored = none) => {
  const { activities, backfills } = planInvoiceActivities(round, stored);
  return {
    activities: activities.map((a) => [a.input.type, a.input.invoice.uuid, a.subscriptionId, a.dropped]),
    backfills: backfills.map((b) => [b.organizationId, b.invoiceId, b.subscriptionId, b.dropped]),
  };
};

describe('planInvoiceActivities', () => {
  it('an invoice activity names its own subscription and names it on stored payments of the invoice once', () => {
    expect(decided([input('invoice_sent', 'i1', 's1'), input('invoice_paid', 'i1', 's1')])).toEqual({
      activities: [
        ['invoice_sent', 'i1', 's1', false],
        ['invoice_paid', 'i1', 's1', false],
      ],
      backfills: [['org', 'i1', 's1', false]],
    });
  });
  it('an invoice without a subscription names none; a later one of the same invoice that has one does', () => {
    expect(decided([input('invoice_sent', 'i1'), input('invoice_paid', 'i1', 's1')]).backfills).toEqual([
      ['org', 'i1', 's1', false],
    ]);
  });
  it("a payment takes the subscription of the invoice's first invoice activity: stored, or earlier in the round", () => {
    const stored = { firstSubscription: new Map([[invoiceKey('org', 'i1'), 's1']]), invalid: new Set<string>() };
    expect(
      decided(
        [
          input('payment_made', 'i1'),
          input('invoice_sent', 'i2', 's2'),
          input('payment_made', 'i2'),
          input('payment_made', 'i3'),
        ],
        stored,
      ).activities,
    ).toEqual([
      ['payment_made', 'i1', 's1', false],
      ['invoice_sent', 'i2', 's2', false],
      ['payment_made', 'i2', 's2', false],
      ['payment_made', 'i3', null, false],
    ]);
  });
  it('the first invoice activity counts even when it names no subscription', () => {
    const stored = { firstSubscription: new Map([[invoiceKey('org', 'i1'), null]]), invalid: new Set<string>() };
    expect(decided([input('invoice_paid', 'i1', 's1'), input('payment_made', 'i1')], stored).activities).toEqual([
      ['invoice_paid', 'i1', 's1', false],
      ['payment_made', 'i1', null, false],
    ]);
  });
  it("the activities of an invalid subscription's invoices are dropped, backfilled payments too", () => {
    const stored = { firstSubscription: new Map([[invoiceKey('org', 'i1'), 'bad']]), invalid: new Set(['bad']) };
    expect(decided([input('payment_made', 'i1'), input('invoice_sent', 'i2', 'bad')], stored)).toEqual({
      activities: [
        ['payment_made', 'i1', 'bad', true],
        ['invoice_sent', 'i2', 'bad', true],
      ],
      backfills: [['org', 'i2', 'bad', true]],
    });
  });
  it('invoices are told apart by organization', () => {
    const stored = { firstSubscription: new Map([[invoiceKey('a', 'i1'), 's1']]), invalid: new Set<string>() };
    expect(
      decided([input('payment_made', 'i1', null, 'a'), input('payment_made', 'i1', null, 'b')], stored).activities,
    ).toEqual([
      ['payment_made', 'i1', 's1', false],
      ['payment_made', 'i1', null, false],
    ]);
  });
});

describe('invoiceActivityRounds', () => {
  it('one round unless an invoice activity would name its subscription on a payment of the same round', () => {
    const batch = [
      input('invoice_sent', 'i1', 's1'),
      input('payment_made', 'i1'),
      input('payment_made', 'i2'),
      input('invoice_sent', 'i3', 's3'),
      input('invoice_sent', 'i2'),
      input('invoice_paid', 'i2', 's2'),
      input('payment_made', 'i2'),
      input('invoice_paid', 'i1', 's1'),
      input('invoice_paid', 'i2', 's2'),
    ];
    expect(invoiceActivityRounds(batch).map((round) => round.map((i) => `${i.type} ${i.invoice.uuid}`))).toEqual([
      ['invoice_sent i1', 'payment_made i1', 'payment_made i2', 'invoice_sent i3', 'invoice_sent i2'],
      // payment_made i1 is in the round before: stored when invoice_paid i1 names its subscription.
      ['invoice_paid i2', 'payment_made i2', 'invoice_paid i1'],
      ['invoice_paid i2'],
    ]);
  });
  it('none for no inputs', () => {
    expect(invoiceActivityRounds([])).toEqual([]);
  });
});

describe('what a round reads', () => {
  it("the invoices of its payments, and its invoices' and payments' subscriptions", () => {
    const round = [input('payment_made', 'i1'), input('invoice_sent', 'i2', 's2'), input('payment_made', 'i1')];
    expect(paymentInvoices(round)).toEqual([{ organizationId: 'org', invoiceId: 'i1' }]);
    expect(subscriptionsToCheck(round, new Map([[invoiceKey('org', 'i1'), 's1']]))).toEqual(['s2', 's1']);
  });
});
