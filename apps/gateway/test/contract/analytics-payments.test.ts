/**
 * payment_made (gaps.md §8): a card payment that succeeds (payments.payment.succeeded) is an
 * activity without MRR naming the invoice, its account and the invoice's subscription, dated when
 * the charge succeeded; a declined charge makes none. Through HTTP on a test clock.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITIES, readAnalytics } from './analytics-helpers.js';
import { expectStatus, type Json, UUID_PATTERN, usePlatform } from './helpers.js';
import { INVOICES, invoiceFixture, subscribe } from './invoices-helpers.js';
import { clockOrganization } from './subscriptions-helpers.js';

const platform = usePlatform();
const CARDS = '/api/v1/paymentcards/';
const START = '2026-01-15T09:00:00.000Z';

describe('payment_made activities', () => {
  it('records a succeeded card payment of an invoice, and none for a declined one', async () => {
    const organization = await clockOrganization(platform(), START);
    const { api } = organization;
    const paying = await invoiceFixture(api);
    const declining = await invoiceFixture(api, { account: { company_name: 'Declined ApS' } });
    expectStatus(await api.post(CARDS, { account: paying.account.uuid, token: 'noop_visa', gateway: 'noop' }), 201);
    expectStatus(
      await api.post(CARDS, { account: declining.account.uuid, token: 'noop_declined', gateway: 'noop' }),
      201,
    );
    const paid = await subscribe(api, paying, { collection_method: 'payment_card' });
    const open = await subscribe(api, declining, { collection_method: 'payment_card' });
    await organization.advance('2026-01-15T10:00:00Z');

    const invoiceOf = async (subscription: string) =>
      (await api.get(`${INVOICES}?subscription_uuid=${subscription}`)).body.results[0].uuid as string;
    const paidInvoice = await invoiceOf(paid.uuid);
    const openInvoice = await invoiceOf(open.uuid);

    const body = await readAnalytics(
      platform(),
      api,
      `${ACTIVITIES}?type=invoice_sent,invoice_paid,payment_made&ordering=date&page_size=100`,
    );
    const typesOf = (invoice: string) =>
      (body.results as Json[]).filter((activity) => activity.invoice === invoice).map((activity) => activity.type);
    expect(typesOf(paidInvoice).sort()).toEqual(['invoice_paid', 'invoice_sent', 'payment_made']);
    expect(typesOf(openInvoice)).toEqual(['invoice_sent']);

    const made = await readAnalytics(platform(), api, `${ACTIVITIES}?type=payment_made`);
    expect(made.count).toBe(1);
    expect(made.results[0]).toEqual({
      uuid: expect.stringMatching(UUID_PATTERN),
      account_uuid: paying.account.uuid,
      account_code: paying.code,
      subscription: paid.uuid,
      invoice: paidInvoice,
      date: START,
      created_date: START,
      updated_date: START,
      type: 'payment_made',
      is_manual: false,
      is_churn: false,
      deleted: false,
      ean_invoice: false,
      old_currency: null,
      new_currency: null,
      old_mrr_in_subscription_currency: null,
      new_mrr_in_subscription_currency: null,
      old_mrr: null,
      new_mrr: null,
      mrr_change: null,
      quantity_change: null,
      old_quantity: null,
      new_quantity: null,
      old_terms: null,
      new_terms: null,
      old_terms_name: null,
      new_terms_name: null,
      old_plan: null,
      new_plan: null,
      old_plan_name: null,
      new_plan_name: null,
      company_name: 'Acme ApS',
      model: 'activity',
      schema: '2026-11-22-activity',
    });
    // The detail, and the account's list, show the same activity.
    expect((await api.get(`${ACTIVITIES}${made.results[0].uuid}/`)).body).toEqual(made.results[0]);
    const countOf = async (code: string) =>
      (await readAnalytics(platform(), api, `${ACTIVITIES}?account=${code}&type=payment_made`)).count;
    expect([await countOf(paying.code), await countOf(declining.code)]).toEqual([1, 0]);
  });
});
