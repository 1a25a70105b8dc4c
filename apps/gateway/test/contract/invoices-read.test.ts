/**
 * Reading invoices (api-spec "Invoice", "Invoices", gaps.md §7): a subscription's charge becomes an
 * invoice, shown in the list view (totals as JSON numbers) and the detail view (totals as decimal
 * strings, lines, PDF, API URL); invoice lines; VAT billing periods; URL rules.
 */
import { describe, expect, it } from 'vitest';
import { expectStatus, NOT_FOUND, newOrganization, pathOf, usePlatform } from './helpers.js';
import {
  expectedChargeLine,
  expectedInvoiceFields,
  expectPdf,
  INVOICE_LINES,
  INVOICES,
  invoiceFixture,
  invoiceLinePath,
  invoicePath,
  listNumbers,
  subscribe,
  subscribeAndInvoice,
  waitForInvoices,
} from './invoices-helpers.js';
import { UNKNOWN_UUID } from './subscriptions-helpers.js';

const platform = usePlatform();

describe('an invoice made from a subscription charge', () => {
  it('is listed with the list view: every field but lines, PDF and URL; totals as JSON numbers', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);
    await subscribe(api, fixture, { quantity: 2 });

    await waitForInvoices(api, '', 1);
    const response = await api.get(INVOICES);

    expectStatus(response, 200);
    expect(response.body).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [{ ...expectedInvoiceFields(fixture), total: 250, subtotal: 200, vat: 50, balance: 250 }],
    });
    expect(response.text).toContain('"total":250,');
  });

  it('is read whole with the detail view: totals as strings, its lines, its PDF and its API URL', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);

    const { subscription, invoice } = await subscribeAndInvoice(api, fixture, { quantity: 2 });

    expect(invoice).toEqual({
      ...expectedInvoiceFields(fixture),
      total: '250.00',
      subtotal: '200.00',
      vat: '50.00',
      balance: '250.00',
      invoiceline_set: [expectedChargeLine(fixture, subscription.uuid, invoice.uuid)],
      // No payment reminders yet (docs/api.md "Payment reminders").
      reminder_set: [],
      invoice_api_url: `${platform().baseUrl}${invoicePath(invoice.uuid)}`,
      pdf_base64: expect.any(String),
    });
    expectPdf(invoice.pdf_base64);
    const again = await api.get(pathOf(invoice.invoice_api_url as string));
    expectStatus(again, 200);
    expect(again.body.uuid).toBe(invoice.uuid);
  });

  it('in ISK has whole-krona amounts: "1499" in the detail view, 1499 in the list', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api, { terms: { price: '1499', currency: 'ISK' } });

    const { invoice } = await subscribeAndInvoice(api, fixture);
    const list = await api.get(INVOICES);

    expect(invoice).toMatchObject({ currency: 'ISK', subtotal: '1499', vat: '375', total: '1874', balance: '1874' });
    expect(list.body.results[0]).toMatchObject({ subtotal: 1499, vat: 375, total: 1874, balance: 1874 });
    expect(list.text).toContain('"subtotal":1499,');
  });

  it('numbers invoices 1, 2, ... per organization; the list shows the newest number first', async () => {
    const first = await newOrganization(platform());
    const second = await newOrganization(platform());
    const fixtureA = await invoiceFixture(first.api);
    const fixtureB = await invoiceFixture(second.api);

    await subscribeAndInvoice(first.api, fixtureA);
    await subscribeAndInvoice(first.api, fixtureA);
    await subscribeAndInvoice(second.api, fixtureB);

    expect(await listNumbers(first.api, '')).toEqual([2, 1]);
    expect(await listNumbers(first.api, 'ordering=invoice_number')).toEqual([1, 2]);
    expect(await listNumbers(first.api, 'ordering=not_a_field')).toEqual([2, 1]);
    expect(await listNumbers(second.api, '')).toEqual([1]);
  });

  it('pages with links that keep the filters', async () => {
    const { api } = await newOrganization(platform());
    const fixture = await invoiceFixture(api);
    for (let index = 0; index < 3; index++) await subscribeAndInvoice(api, fixture);

    const first = await api.get(`${INVOICES}?page_size=2&currency=DKK`);
    const second = await api.get(pathOf(first.body.next));
    const past = await api.get(`${INVOICES}?page=3&page_size=2`);

    expect(first.body.count).toBe(3);
    expect(first.body.results.map((invoice: { invoice_number: number }) => invoice.invoice_number)).toEqual([3, 2]);
    expect(new URL(first.body.next).searchParams.get('currency')).toBe('DKK');
    expect(second.body.results.map((invoice: { invoice_number: number }) => invoice.invoice_number)).toEqual([1]);
    expectStatus(past, 404);
    expect(past.body).toEqual({ detail: 'Invalid page.' });
  });
});

describe('invoice lines', () => {
  it('are listed and read one by one, with integer ids, filtered by invoice, account code and subscription', async () => {
    const { api } = await newOrganization(platform());
    const fixtureA = await invoiceFixture(api);
    const fixtureB = await invoiceFixture(api);
    const a = await subscribeAndInvoice(api, fixtureA, { quantity: 2 });
    const b = await subscribeAndInvoice(api, fixtureB, { quantity: 1 });
    const lineA = a.invoice.invoiceline_set as Array<{ id: number }>;
    const lineB = b.invoice.invoiceline_set as Array<{ id: number }>;

    const all = await api.get(INVOICE_LINES);
    const one = await api.get(invoiceLinePath(lineA[0]!.id));
    const ids = async (query: string) =>
      ((await api.get(`${INVOICE_LINES}?${query}`)).body.results as Array<{ id: number }>).map((line) => line.id);

    expectStatus(all, 200);
    expect(all.body).toEqual({ count: 2, next: null, previous: null, results: [lineA[0], lineB[0]] });
    expect(Number.isInteger(lineA[0]!.id)).toBe(true);
    expectStatus(one, 200);
    expect(one.body).toEqual(expectedChargeLine(fixtureA, a.subscription.uuid, a.invoice.uuid));
    expect(await ids(`invoice=${b.invoice.uuid}`)).toEqual([lineB[0]!.id]);
    expect(await ids(`account=${fixtureA.code}`)).toEqual([lineA[0]!.id]);
    expect(await ids('account=no-such-account')).toEqual([]);
    expect(await ids(`subscription=${b.subscription.uuid}`)).toEqual([lineB[0]!.id]);
    expect(await ids(`subscription=${UNKNOWN_UUID}`)).toEqual([]);
  });

  it('answer 404 for an unknown id or one that is not a number, and 400 for a bad filter', async () => {
    const { api } = await newOrganization(platform());

    for (const path of [invoiceLinePath(987654321), invoiceLinePath('abc'), invoiceLinePath('-1')]) {
      const response = await api.get(path);
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    const bad = await api.get(`${INVOICE_LINES}?invoice=nope`);
    expectStatus(bad, 400);
    expect(bad.body).toEqual({ invoice: ['Enter a valid UUID.'] });
  });
});

describe('available VAT billing periods', () => {
  it('are a plain list of the months that have invoices, on both path forms', async () => {
    const { api } = await newOrganization(platform());
    const empty = await api.get(`${INVOICES}available-vat-billing-periods/`);
    const fixture = await invoiceFixture(api);
    await subscribeAndInvoice(api, fixture);

    const hyphen = await api.get(`${INVOICES}available-vat-billing-periods/`);
    const underscore = await api.get(`${INVOICES}available_vat_billing_periods/`);

    expect(empty.body).toEqual([]);
    expectStatus(hyphen, 200);
    expect(hyphen.body).toEqual([
      {
        display_name: 'January 2026',
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        model: 'vat_billing_period',
        schema: expect.any(String),
      },
    ]);
    expect(underscore.body).toEqual(hyphen.body);
  });
});

describe('URLs and methods', () => {
  it('answer 404 for an unknown invoice or a path segment that is not a uuid', async () => {
    const { api } = await newOrganization(platform());
    for (const path of [invoicePath(UNKNOWN_UUID), invoicePath('not-a-uuid')]) {
      const response = await api.get(path);
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });

  it('redirect a GET without the trailing slash and refuse a write without it', async () => {
    const { api } = await newOrganization(platform());

    const get = await api.get(`${INVOICES}${UNKNOWN_UUID}?x=1`);
    const post = await api.post(`${INVOICES}${UNKNOWN_UUID}/credit`);

    expectStatus(get, 301);
    expect(get.headers.get('location')).toBe(`${INVOICES}${UNKNOWN_UUID}/?x=1`);
    expectStatus(post, 404);
    expect(post.body).toEqual({ detail: `URL must end with a slash: ${INVOICES}${UNKNOWN_UUID}/credit/` });
  });

  it('answer 405 for methods an invoice does not have', async () => {
    const { api } = await newOrganization(platform());
    const path = invoicePath(UNKNOWN_UUID);

    const answers = [
      await api.post(INVOICES, {}),
      await api.put(path, {}),
      await api.delete(path),
      await api.get(`${path}credit/`),
      await api.get(`${path}register-payment/`),
      await api.delete(invoiceLinePath(1)),
    ];

    for (const answer of answers) expectStatus(answer, 405);
    expect(answers[1]!.body).toEqual({ detail: 'Method "PUT" not allowed.' });
    expect(answers[1]!.headers.get('allow')).toBe('GET, PATCH, HEAD');
  });
});

describe('API description', () => {
  it('documents every invoice, invoice line and draft line operation, list totals as numbers and detail totals as strings', async () => {
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, { properties: Record<string, { type?: string }> }> };
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );

    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/v1/invoices/ listInvoices',
        'GET /api/v1/invoices/available-vat-billing-periods/ listAvailableVatBillingPeriods',
        'GET /api/v1/invoices/{uuid}/ getInvoice',
        'PATCH /api/v1/invoices/{uuid}/ updateInvoiceKickbackStatus',
        'POST /api/v1/invoices/{uuid}/register-payment/ registerInvoicePayment',
        'POST /api/v1/invoices/{uuid}/change-collection-method/ changeInvoiceCollectionMethod',
        'POST /api/v1/invoices/{uuid}/send/ sendInvoice',
        'POST /api/v1/invoices/{uuid}/credit/ creditInvoice',
        'POST /api/v1/invoices/{uuid}/apply-credit-note/ applyCreditNote',
        'GET /api/v1/invoicelines/ listInvoiceLines',
        'GET /api/v1/invoicelines/{id}/ getInvoiceLine',
        'GET /api/v1/draftinvoicelines/ listDraftInvoiceLines',
        'POST /api/v1/draftinvoicelines/ createDraftInvoiceLine',
        'GET /api/v1/draftinvoicelines/{uuid}/ getDraftInvoiceLine',
        'PUT /api/v1/draftinvoicelines/{uuid}/ replaceDraftInvoiceLine',
        'PATCH /api/v1/draftinvoicelines/{uuid}/ updateDraftInvoiceLine',
        'DELETE /api/v1/draftinvoicelines/{uuid}/ deleteDraftInvoiceLine',
        'POST /api/v1/accounts/{code}/generate-invoice/ generateAccountInvoice',
        'POST /api/v1/accounts/{code}/upcoming-invoice/ upcomingAccountInvoice',
      ]),
    );
    const { InvoiceListItem, Invoice } = document.components.schemas;
    expect(InvoiceListItem!.properties.total!.type).toBe('number');
    expect(Invoice!.properties.total!.type).toBe('string');
    expect(Object.keys(InvoiceListItem!.properties)).not.toContain('invoiceline_set');
    expect(Object.keys(Invoice!.properties)).toEqual(
      expect.arrayContaining(['invoiceline_set', 'pdf_base64', 'invoice_api_url']),
    );
  });
});
