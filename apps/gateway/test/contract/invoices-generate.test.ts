/**
 * The account's invoicing actions (gaps.md §3): POST generate_invoice invoices the draft lines not
 * waiting for the next renewal, one invoice per currency; POST upcoming-invoice computes the next
 * renewal invoice without storing it. Both answer 200 with invoices in the detail view without
 * `pdf_base64`; an unknown account is 404.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  accountPath,
  createAccount,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  usePlatform,
} from './helpers.js';
import {
  DRAFT_LINES,
  draftLinePath,
  generateInvoicePath,
  INVOICES,
  invoiceFixture,
  invoicePath,
  subscribeAndInvoice,
  upcomingInvoicePath,
} from './invoices-helpers.js';

const platform = usePlatform();

async function draftLine(api: ApiClient, account: string, fields: Json) {
  const response = await api.post(DRAFT_LINES, {
    account,
    description: 'Consulting',
    vat_type: 'services',
    currency: 'DKK',
    ...fields,
  });
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

describe('POST /accounts/{code}/generate_invoice/', () => {
  it('invoices the lines not waiting for the renewal, one invoice per currency, and consumes them', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api, undefined, { company_name: 'Acme ApS' });
    const consulting = await draftLine(api, account.code, { price: '20', quantity: '3', discount_percentage: '10' });
    const travel = await draftLine(api, account.code, { description: 'Travel', price: '99.99', currency: 'EUR' });
    const waiting = await draftLine(api, account.code, { price: '50', include_in_next_renewal_invoice: true });

    const response = await api.post(generateInvoicePath(account.code), { payment_terms: 30 });

    expectStatus(response, 200);
    const byCurrency = Object.fromEntries((response.body as Json[]).map((invoice) => [invoice.currency, invoice]));
    expect(response.body).toHaveLength(2);
    expect(byCurrency.DKK).toMatchObject({
      account_code: account.code,
      date: '2026-01-15',
      due_date: '2026-02-14',
      payment_terms: 30,
      collection_method: 'invoice',
      subtotal: '54.00',
      vat: '13.50',
      total: '67.50',
      balance: '67.50',
      status: 'open',
      invoice_api_url: expect.stringMatching(/\/api\/v1\/invoices\/[0-9a-f-]{36}\/$/),
    });
    expect(byCurrency.DKK!.invoiceline_set).toEqual([
      expect.objectContaining({ description: 'Consulting', draft_invoice_line_pk: consulting.uuid, subtotal: '54.00' }),
    ]);
    expect(byCurrency.EUR).toMatchObject({ subtotal: '99.99', vat: '25.00', total: '124.99' });
    expect(byCurrency.EUR!.invoiceline_set).toEqual([
      expect.objectContaining({ description: 'Travel', draft_invoice_line_pk: travel.uuid }),
    ]);
    expect(byCurrency.DKK).not.toHaveProperty('pdf_base64');
    const stored = await api.get(invoicePath(byCurrency.DKK!.uuid as string));
    expect({ ...stored.body, pdf_base64: undefined }).toEqual({ ...byCurrency.DKK, pdf_base64: undefined });
    expectStatus(await api.get(draftLinePath(consulting.uuid)), 404);
    expect((await api.get(`${DRAFT_LINES}?account=${account.code}`)).body.results).toEqual([waiting]);
    // The account's set (accounts' read model) already shows the invoiced lines gone.
    expect((await api.get(accountPath(account.code))).body.draftinvoiceline_set).toEqual([waiting]);
  });

  it("without collection_method and payment_terms: the account's defaults, else the organization's", async () => {
    const { api, organizationId } = await newOrganization(platform());
    // The organization's own defaults, set as an operator would.
    await platform().admin(
      'update-org',
      '--org',
      organizationId,
      '--collection-method',
      'direct_debit',
      '--payment-terms',
      '21',
    );
    const withDefaults = await createAccount(api, undefined, {
      default_collection_method: 'payment_card',
      default_payment_terms: 7,
    });
    const without = await createAccount(api);
    const generate = async (code: string, body?: Json) => {
      await draftLine(api, code, { price: '10' });
      const response = await api.post(generateInvoicePath(code), body);
      expectStatus(response, 200);
      const [invoice] = response.body as Json[];
      return [invoice!.collection_method, invoice!.payment_terms, invoice!.due_date];
    };

    // The account's defaults.
    expect(await generate(withDefaults.code)).toEqual(['payment_card', 7, '2026-01-22']);
    // No account defaults: the organization's.
    expect(await generate(without.code)).toEqual(['direct_debit', 21, '2026-02-05']);
    // Given in the body: those, over both (0 days is on receipt).
    expect(await generate(withDefaults.code, { collection_method: 'invoice', payment_terms: 0 })).toEqual([
      'invoice',
      0,
      '2026-01-15',
    ]);
    // One given, the other defaulted.
    expect(await generate(without.code, { payment_terms: 3 })).toEqual(['direct_debit', 3, '2026-01-18']);
    expect(await generate(withDefaults.code, { collection_method: 'direct_debit' })).toEqual([
      'direct_debit',
      7,
      '2026-01-22',
    ]);
  }, 60_000);

  it('answers an empty list when there is nothing to invoice, on both path forms', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    await draftLine(api, account.code, { price: '5' });

    const first = await api.post(generateInvoicePath(account.code).replace('generate_invoice', 'generate-invoice'));
    const second = await api.post(generateInvoicePath(account.code));

    expectStatus(first, 200);
    expect(first.body).toHaveLength(1);
    expectStatus(second, 200);
    expect(second.body).toEqual([]);
    expect((await api.get(INVOICES)).body.count).toBe(1);
  });

  it('is 404 for an unknown account, 405 on GET, and checks its body', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const unknown = await api.post(generateInvoicePath('no-such-account'));
    const get = await api.get(generateInvoicePath(account.code));
    const bad = await api.post(generateInvoicePath(account.code), { collection_method: 'cash', payment_terms: -1 });

    expectStatus(unknown, 404);
    expect(unknown.body).toEqual(NOT_FOUND);
    expectStatus(get, 405);
    expectStatus(bad, 400);
    expect(bad.body).toEqual({
      collection_method: ['"cash" is not a valid choice.'],
      payment_terms: ['Ensure this value is greater than or equal to 0.'],
    });
  });
});

describe('POST /accounts/{code}/upcoming-invoice/', () => {
  it('computes the next renewal invoice with the waiting draft lines, stores nothing, on both path forms', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);
    const { subscription } = await subscribeAndInvoice(api, fixture, { quantity: 2 });
    const waiting = await draftLine(api, fixture.code, { price: '50', include_in_next_renewal_invoice: true });

    const hyphen = await api.post(upcomingInvoicePath(fixture.code));
    const underscore = await api.post(
      upcomingInvoicePath(fixture.code).replace('upcoming-invoice', 'upcoming_invoice'),
    );

    expectStatus(hyphen, 200);
    expect(hyphen.body).toMatchObject({
      uuid: null,
      invoice_number: null,
      invoice_api_url: null,
      account_code: fixture.code,
      date: '2026-02-15',
      currency: 'DKK',
      subtotal: '250.00',
      vat: '62.50',
      total: '312.50',
    });
    expect(hyphen.body).not.toHaveProperty('pdf_base64');
    expect(hyphen.body.invoiceline_set).toEqual([
      expect.objectContaining({
        id: null,
        invoice: null,
        subscription: subscription.uuid,
        date_from: '2026-02-15',
        date_to: '2026-03-14',
        subtotal: '200.00',
      }),
      expect.objectContaining({ id: null, draft_invoice_line_pk: waiting.uuid, subtotal: '50.00' }),
    ]);
    expect(underscore.body).toEqual(hyphen.body);
    expect((await api.get(INVOICES)).body.count).toBe(1);
    expectStatus(await api.get(draftLinePath(waiting.uuid)), 200);
  });

  it('is 404 with its own detail when nothing renews, and 404 Not found for an unknown account', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const nothing = await api.post(upcomingInvoicePath(account.code));
    const unknown = await api.post(upcomingInvoicePath('no-such-account'));

    expectStatus(nothing, 404);
    expect(nothing.body).toEqual({ detail: 'The account has no upcoming invoice.' });
    expectStatus(unknown, 404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });
});
