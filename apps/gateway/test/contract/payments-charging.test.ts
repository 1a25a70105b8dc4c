/**
 * Issue 11 acceptance, card charging through HTTP on test clocks (gaps.md §11): a noop_visa
 * account's card invoice is paid right after it is issued; a noop_declined account's invoice is
 * tried on the day it is issued and retried 1, 3 and 7 days later on the organization's clock, then
 * left open with four declined attempts. Every attempt is an event with its outcome.
 */
import { waitFor } from '@billing/testing';
import { describe, expect, it } from 'vitest';
import type { PaymentEvent } from '../support/platform.js';
import { expectStatus, newOrganization, UUID_PATTERN, usePlatform } from './helpers.js';
import { INVOICES, invoiceFixture, invoicePath, subscribe } from './invoices-helpers.js';
import { clockOrganization } from './subscriptions-helpers.js';

const platform = usePlatform();
const CARDS = '/api/v1/paymentcards/';
const START = '2026-01-15T09:00:00.000Z';

function attemptsOf(events: PaymentEvent[], invoice: string) {
  return events
    .filter((event) => event.attempt?.attempt?.invoice === invoice)
    .map((event) => {
      const attempt = event.attempt!.attempt!;
      return {
        event: event.event_type,
        number: attempt.number,
        outcome: attempt.outcome,
        amount: attempt.amount,
        currency: attempt.currency,
        gateway: attempt.payment_gateway,
        reference: attempt.gateway_reference,
        attempted_at: attempt.attempted_at?.toISOString(),
        retry_scheduled: event.attempt!.retry_scheduled,
      };
    });
}

describe('charging card invoices', () => {
  it('pays a noop_visa card invoice when its advance answers, with one succeeded attempt', async () => {
    const organization = await clockOrganization(platform(), START);
    const { api } = organization;
    const fixture = await invoiceFixture(api);
    const card = await api.post(CARDS, { account: fixture.account.uuid, token: 'noop_visa', gateway: 'noop' });
    expectStatus(card, 201);
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await organization.advance(START);

    const list = await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`);
    expect(list.body.count).toBe(1);
    const invoice = (await api.get(invoicePath(list.body.results[0].uuid))).body;
    expect({
      status: invoice.status,
      balance: invoice.balance,
      total: invoice.total,
    }).toEqual({
      status: 'paid',
      balance: '0.00',
      total: '125.00',
    });
    const attempts = attemptsOf(await platform().paymentEvents(organization.organizationId), invoice.uuid);
    expect(attempts).toEqual([
      {
        event: 'payment.succeeded',
        number: 1,
        outcome: 'succeeded',
        amount: '125.000000',
        currency: 'DKK',
        gateway: 'noop',
        reference: expect.stringMatching(/^noop_ch_[0-9a-f-]{36}$/),
        attempted_at: START,
        retry_scheduled: false,
      },
    ]);
    const events = await platform().invoiceEvents(organization.organizationId);
    expect(events.filter((event) => event.invoice.uuid === invoice.uuid).map((event) => event.event_type)).toEqual([
      'invoice.issued',
      'invoice.paid',
    ]);
  });

  it('pays a card invoice of an organization on the real clock from invoice.issued, without any advance', async () => {
    const { api, organizationId } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);
    expectStatus(
      await api.post(CARDS, { account: fixture.account.uuid, token: 'noop_mastercard', gateway: 'noop' }),
      201,
    );
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    const paid = await waitFor(
      async () => {
        const list = await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}&status=paid`);
        return list.body.count === 1 ? list.body.results[0] : undefined;
      },
      { timeoutMs: 20_000, description: 'the card invoice to be paid' },
    );
    expect((await api.get(invoicePath(paid.uuid))).body.balance).toBe('0.00');
    const attempts = attemptsOf(await platform().paymentEvents(organizationId), paid.uuid);
    expect(attempts.map(({ event, number, amount }) => [event, number, amount])).toEqual([
      ['payment.succeeded', 1, '125.000000'],
    ]);
  });

  it('retries a noop_declined card on days 1, 3 and 7, then leaves the invoice open with four declined attempts', async () => {
    const organization = await clockOrganization(platform(), START);
    const { api } = organization;
    const fixture = await invoiceFixture(api);
    expectStatus(
      await api.post(CARDS, { account: fixture.account.uuid, token: 'noop_declined', gateway: 'noop' }),
      201,
    );
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await organization.advance(START);
    const list = await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`);
    const uuid = list.body.results[0].uuid as string;
    const attempts = async () => attemptsOf(await platform().paymentEvents(organization.organizationId), uuid);
    expect((await attempts()).map((attempt) => attempt.number)).toEqual([1]);

    // Just before day 1: nothing falls due.
    await organization.advance('2026-01-16T08:59:00Z');
    expect((await attempts()).map((attempt) => attempt.number)).toEqual([1]);
    await organization.advance('2026-01-16T09:00:00Z');
    expect((await attempts()).map((attempt) => attempt.number)).toEqual([1, 2]);
    // Days 3 and 7 at once: both retries run, in order, each at its own moment.
    await organization.advance('2026-01-25T12:00:00Z');
    await organization.advance('2026-02-10T12:00:00Z');

    const declined = (number: number, at: string, retry: boolean) => ({
      event: 'payment.declined',
      number,
      outcome: 'declined',
      amount: '125.000000',
      currency: 'DKK',
      gateway: 'noop',
      reference: expect.stringMatching(/^noop_ch_/),
      attempted_at: at,
      retry_scheduled: retry,
    });
    expect(await attempts()).toEqual([
      declined(1, START, true),
      declined(2, '2026-01-16T09:00:00.000Z', true),
      declined(3, '2026-01-18T09:00:00.000Z', true),
      declined(4, '2026-01-22T09:00:00.000Z', false),
    ]);
    const references = (await attempts()).map((attempt) => attempt.reference);
    expect(new Set(references).size).toBe(4);
    const invoice = (await api.get(invoicePath(uuid))).body;
    expect({ status: invoice.status, balance: invoice.balance }).toEqual({ status: 'open', balance: '125.00' });
    expect(invoice.uuid).toMatch(UUID_PATTERN);
  });

  it('follows the organization dunning schedule set with the admin command line', async () => {
    const organization = await clockOrganization(platform(), START);
    await platform().admin('update-org', '--org', organization.organizationId, '--dunning-days', '2');
    const { api } = organization;
    const fixture = await invoiceFixture(api);
    expectStatus(
      await api.post(CARDS, { account: fixture.account.uuid, token: 'noop_declined', gateway: 'noop' }),
      201,
    );
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await organization.advance('2026-01-25T09:00:00Z');
    const list = await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`);
    const attempts = attemptsOf(await platform().paymentEvents(organization.organizationId), list.body.results[0].uuid);
    expect(attempts.map((attempt) => [attempt.number, attempt.attempted_at, attempt.retry_scheduled])).toEqual([
      [1, START, true],
      [2, '2026-01-17T09:00:00.000Z', false],
    ]);
  });

  it('leaves a card invoice of an account without an active card open', async () => {
    const organization = await clockOrganization(platform(), START);
    const { api } = organization;
    const fixture = await invoiceFixture(api);
    const subscription = await subscribe(api, fixture, { collection_method: 'payment_card' });
    await organization.advance('2026-01-20T09:00:00Z');
    const list = await api.get(`${INVOICES}?subscription_uuid=${subscription.uuid}`);
    expect(list.body.results.map((invoice: { status: string }) => invoice.status)).toEqual(['open']);
    expect(attemptsOf(await platform().paymentEvents(organization.organizationId), list.body.results[0].uuid)).toEqual(
      [],
    );
  });
});
