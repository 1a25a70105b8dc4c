/**
 * Tenancy of invoices, invoice lines, draft lines and the account invoicing actions: another
 * organization's object is 404 on every endpoint (never 403: existence must not leak), is never
 * listed, and is left unchanged.
 */
import { describe, expect, it } from 'vitest';
import { expectStatus, NOT_FOUND, newOrganization, usePlatform } from './helpers.js';
import {
  ACTION_FORMS,
  actionPath,
  DRAFT_LINES,
  draftLinePath,
  generateInvoicePath,
  INVOICE_LINES,
  INVOICES,
  invoiceFixture,
  invoiceLinePath,
  invoicePath,
  subscribeAndInvoice,
  upcomingInvoicePath,
} from './invoices-helpers.js';

const platform = usePlatform();

async function twoOrganizations() {
  const a = await newOrganization(platform(), { features: ['kickback'] });
  const b = await newOrganization(platform(), { features: ['kickback'] });
  const fixtureA = await invoiceFixture(a.api);
  const fixtureB = await invoiceFixture(b.api);
  const ofA = await subscribeAndInvoice(a.api, fixtureA);
  const draftLine = await a.api.post(DRAFT_LINES, {
    account: fixtureA.code,
    description: 'Setup',
    vat_type: 'services',
    currency: 'DKK',
    price: '10',
  });
  expectStatus(draftLine, 201);
  return { a, b, fixtureA, fixtureB, invoiceOfA: ofA.invoice, draftLineOfA: draftLine.body };
}

const withoutPdf = ({ pdf_base64: _pdf, ...rest }: Record<string, unknown>) => rest;

describe("another organization's invoice", () => {
  it('is 404 on the detail, PATCH and every action on both path forms, and stays unchanged', async () => {
    const { a, b, invoiceOfA } = await twoOrganizations();
    const uuid = invoiceOfA.uuid;
    const line = (invoiceOfA.invoiceline_set as Array<{ id: number }>)[0]!;

    const answers = [
      await b.api.get(invoicePath(uuid)),
      await b.api.patch(invoicePath(uuid), { kickback_status: 'commission_paid' }),
      await b.api.patch(invoicePath(uuid), {}),
      ...(await Promise.all(
        ACTION_FORMS.registerPayment.map((action) =>
          b.api.post(actionPath(uuid, action), { registration_date: '2026-01-20' }),
        ),
      )),
      ...(await Promise.all(
        ACTION_FORMS.changeCollectionMethod.map((action) =>
          b.api.post(actionPath(uuid, action), { collection_method: 'payment_card' }),
        ),
      )),
      await b.api.post(actionPath(uuid, 'send')),
      await b.api.post(actionPath(uuid, 'credit')),
      ...(await Promise.all(
        ACTION_FORMS.applyCreditNote.map((action) => b.api.post(actionPath(uuid, action), { target_invoice: uuid })),
      )),
      await b.api.get(invoiceLinePath(line.id)),
    ];

    for (const answer of answers) {
      expectStatus(answer, 404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
    expect(withoutPdf((await a.api.get(invoicePath(uuid))).body)).toEqual(withoutPdf(invoiceOfA));
  });

  it('is never listed, whatever the filter, nor are its lines', async () => {
    const { a, b, fixtureA, invoiceOfA } = await twoOrganizations();
    const ofB = await subscribeAndInvoice(b.api, await invoiceFixture(b.api));
    const numbers = async (query: string) =>
      (await b.api.get(`${INVOICES}?${query}`)).body.results.map((invoice: { uuid: string }) => invoice.uuid);
    const lines = async (query: string) => (await b.api.get(`${INVOICE_LINES}?${query}`)).body.count;

    expect(await numbers('')).toEqual([ofB.invoice.uuid]);
    expect(await numbers(`uuid=${invoiceOfA.uuid}`)).toEqual([]);
    expect(await numbers(`account=${fixtureA.code}`)).toEqual([]);
    expect(await numbers(`search=${fixtureA.account.company_name}`)).toEqual([ofB.invoice.uuid]);
    expect(await numbers('invoice_number=1')).toEqual([ofB.invoice.uuid]);
    expect(await lines(`invoice=${invoiceOfA.uuid}`)).toBe(0);
    expect(await lines('')).toBe(1);
    expect((await a.api.get(`${INVOICES}available-vat-billing-periods/`)).body).toHaveLength(1);
  });

  it('cannot be the target of a credit note', async () => {
    const { b, invoiceOfA, fixtureB } = await twoOrganizations();
    const { invoice } = await subscribeAndInvoice(b.api, fixtureB);
    const note = (await b.api.post(actionPath(invoice.uuid, 'credit'))).body;

    const response = await b.api.post(actionPath(note.uuid, 'apply-credit-note'), { target_invoice: invoiceOfA.uuid });

    expectStatus(response, 400);
    expect(response.body).toEqual({ error: 'The target invoice does not exist.' });
  });
});

describe("another organization's account and draft lines", () => {
  it('generate_invoice and upcoming-invoice on its account code are 404', async () => {
    const { b, fixtureA } = await twoOrganizations();

    for (const path of [
      generateInvoicePath(fixtureA.code),
      generateInvoicePath(fixtureA.code).replace('generate_invoice', 'generate-invoice'),
      upcomingInvoicePath(fixtureA.code),
      upcomingInvoicePath(fixtureA.code).replace('upcoming-invoice', 'upcoming_invoice'),
    ]) {
      const response = await b.api.post(path, {});
      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });

  it('a draft line is 404 on GET, PUT, PATCH and DELETE, never listed, and its account cannot be named', async () => {
    const { a, b, fixtureA, draftLineOfA } = await twoOrganizations();
    const path = draftLinePath(draftLineOfA.uuid);
    const body = { account: fixtureA.code, description: 'x', vat_type: 'services', currency: 'DKK' };

    const answers = [
      await b.api.get(path),
      await b.api.put(path, { ...body, account: (await invoiceFixture(b.api)).code }),
      await b.api.patch(path, { description: 'taken' }),
      await b.api.delete(path),
    ];
    const create = await b.api.post(DRAFT_LINES, body);

    for (const answer of answers) {
      expectStatus(answer, 404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
    expect((await b.api.get(DRAFT_LINES)).body.count).toBe(0);
    expect((await b.api.get(`${DRAFT_LINES}?account=${fixtureA.code}`)).body.count).toBe(0);
    expectStatus(create, 400);
    expect(create.body).toEqual({ account: [`Object with code=${fixtureA.code} does not exist.`] });
    expect((await a.api.get(path)).body).toEqual(draftLineOfA);
  });
});
