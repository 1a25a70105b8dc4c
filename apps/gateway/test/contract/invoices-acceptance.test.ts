/**
 * Issue 4 acceptance, end to end through HTTP on test clocks: a Danish organization (DKK, 25 %
 * VAT, 14 days' payment terms), exact documents. Invoices are made asynchronously from the
 * engine's charges; the test clock's advance returns after they are issued.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from '@billing/testing';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  accountPath,
  createAccount,
  createPlan,
  createPlanTerms,
  createRecipient,
  expectStatus,
  type Json,
  newOrganization,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { subscribePath, subscriptionPath } from './subscriptions-helpers.js';

const platform = usePlatform();
const INVOICES = '/api/v1/invoices/';

async function danishOrganization(time: string) {
  const organization = await newOrganization(platform(), {
    test_clock_time: time,
    country: 'DK',
    base_currency: 'DKK',
    default_payment_terms: 14,
  });
  const advance = async (to: string) =>
    expectStatus(await organization.api.post('/api/v1/test-clock/advance/', { to }), 200);
  return { ...organization, advance };
}

async function terms(api: ApiClient, overrides: Json = {}) {
  const plan = await createPlan(api, uniqueCode('plan'), { name: 'Pro' });
  return createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK', code: 'monthly', ...overrides });
}

async function subscribe(api: ApiClient, code: string, termsUuid: string, body: Json = {}) {
  const response = await api.post('/api/v1/subscriptions/', {
    account: code,
    terms: termsUuid,
    collection_method: 'invoice',
    ...body,
  });
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

/** The account's invoices, oldest number first, in detail shape. */
async function invoicesOf(api: ApiClient, code: string): Promise<Json[]> {
  const list = await api.get(`${INVOICES}?account=${code}&ordering=invoice_number&page_size=100`);
  expectStatus(list, 200);
  const details = [];
  for (const invoice of (list.body as { results: Json[] }).results) {
    const detail = await api.get(`${INVOICES}${invoice.uuid}/`);
    expectStatus(detail, 200);
    details.push(detail.body as Json);
  }
  return details;
}

/** What a person checks on a document. */
function document(invoice: Json) {
  return {
    invoice_number: invoice.invoice_number,
    date: invoice.date,
    due_date: invoice.due_date,
    status: invoice.status,
    subtotal: invoice.subtotal,
    vat: invoice.vat,
    total: invoice.total,
    balance: invoice.balance,
    lines: (invoice.invoiceline_set as Json[]).map((line) => [line.date_from, line.date_to, line.subtotal, line.vat]),
  };
}

describe('a Danish organization invoices its subscriptions', () => {
  it('subscribe 2 × 100.00 DKK monthly forward: invoice 1 = 200.00 + 50.00 VAT; the renewal is number 2', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    await subscribe(org.api, account.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-01-15T09:00:00.000Z');

    const [first] = await invoicesOf(org.api, account.code as string);
    expect(document(first!)).toEqual({
      invoice_number: 1,
      date: '2026-01-15',
      due_date: '2026-01-29',
      status: 'open',
      subtotal: '200.00',
      vat: '50.00',
      total: '250.00',
      balance: '250.00',
      lines: [['2026-01-15', '2026-02-14', '200.00', '50.00']],
    });
    expect(first!.pdf_base64).toEqual(expect.any(String));

    await org.advance('2026-02-15T09:00:00.000Z');
    const invoices = await invoicesOf(org.api, account.code as string);
    expect(document(invoices[1]!)).toMatchObject({
      invoice_number: 2,
      date: '2026-02-15',
      due_date: '2026-03-01',
      total: '250.00',
      lines: [['2026-02-15', '2026-03-14', '200.00', '50.00']],
    });
  });

  it('a German company with a VAT number: no VAT and the reverse-charge note; a US account: no VAT', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const german = await createAccount(org.api, uniqueCode(), {
      company_name: 'Beispiel GmbH',
      legal_country: 'DE',
      legal_vat_number: 'DE123456789',
    });
    const american = await createAccount(org.api, uniqueCode(), { company_name: 'Example Inc', legal_country: 'US' });
    const monthly = await terms(org.api);
    await subscribe(org.api, german.code as string, monthly.uuid, { quantity: 2 });
    await subscribe(org.api, american.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-01-15T09:00:00.000Z');

    const [de] = await invoicesOf(org.api, german.code as string);
    expect(document(de!)).toMatchObject({ subtotal: '200.00', vat: '0.00', total: '200.00' });
    expect(de).toMatchObject({ reverse_charge: true, vat_note: expect.stringMatching(/reverse charge/i) });
    const [us] = await invoicesOf(org.api, american.code as string);
    expect(document(us!)).toMatchObject({ subtotal: '200.00', vat: '0.00', total: '200.00' });
    expect(us).toMatchObject({ reverse_charge: false });
  });

  it('a mid-period quantity change is one document with the credit and the charge; a net-negative one is a credit note', async () => {
    const org = await danishOrganization('2026-02-01T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    const subscription = await subscribe(org.api, account.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');

    expectStatus(await org.api.patch(subscriptionPath(subscription.uuid), { quantity: 3 }), 200);
    await org.advance('2026-02-11T12:00:00.000Z');
    expectStatus(await org.api.patch(subscriptionPath(subscription.uuid), { quantity: 1 }), 200);
    await org.advance('2026-02-11T12:00:00.000Z');

    const invoices = await invoicesOf(org.api, account.code as string);
    expect(invoices.map(document).slice(1)).toEqual([
      {
        invoice_number: 2,
        date: '2026-02-11',
        due_date: '2026-02-25',
        status: 'open',
        subtotal: '64.29',
        vat: '16.07',
        total: '80.36',
        balance: '80.36',
        lines: [
          ['2026-02-11', '2026-02-28', '-128.57', '-32.14'],
          ['2026-02-11', '2026-02-28', '192.86', '48.22'],
        ],
      },
      {
        invoice_number: 3,
        date: '2026-02-11',
        due_date: '2026-02-25',
        status: 'open',
        subtotal: '-128.57',
        vat: '-32.14',
        total: '-160.71',
        balance: '-160.71',
        lines: [
          ['2026-02-11', '2026-02-28', '-192.86', '-48.22'],
          ['2026-02-11', '2026-02-28', '64.29', '16.07'],
        ],
      },
    ]);
    expect(invoices[2]).toMatchObject({ is_credit_note: true });
  });

  it('cancel full_refund credits the whole current invoice; apply-credit-note settles it', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    const subscription = await subscribe(org.api, account.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-01-20T09:00:00.000Z');
    expectStatus(
      await org.api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'full_refund' }),
      200,
    );
    await org.advance('2026-01-20T09:00:00.000Z');

    const [invoice, credit] = await invoicesOf(org.api, account.code as string);
    expect(document(credit!)).toMatchObject({
      invoice_number: 2,
      subtotal: '-200.00',
      vat: '-50.00',
      total: '-250.00',
    });
    const applied = await org.api.post(`${INVOICES}${credit!.uuid}/apply-credit-note/`, {
      target_invoice: invoice!.uuid,
    });
    expectStatus(applied, 200);
    const [settled, used] = await invoicesOf(org.api, account.code as string);
    expect([settled!.status, settled!.balance, used!.status, used!.balance]).toEqual([
      'credited',
      '0.00',
      'credited',
      '0.00',
    ]);
  });

  it('two grouped subscriptions renewing the same day share one invoice; a third with another PO number has its own', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    const cheap = await terms(org.api, { price: '50.00', code: 'cheap' });
    const code = account.code as string;
    await subscribe(org.api, code, monthly.uuid, { group_on_invoice: true, po_number: 'PO-1' });
    await subscribe(org.api, code, cheap.uuid, { group_on_invoice: true, po_number: 'PO-1' });
    await subscribe(org.api, code, cheap.uuid, { group_on_invoice: true, po_number: 'PO-2' });
    await org.advance('2026-01-15T09:00:00.000Z');

    const invoices = await invoicesOf(org.api, code);
    const po = (invoice: Json) => String((invoice.invoiceline_set as Json[])[0]!.po_number);
    const byPo = invoices.sort((a, b) => po(a).localeCompare(po(b)));
    expect(byPo.map((invoice) => [po(invoice), invoice.subtotal, (invoice.invoiceline_set as Json[]).length])).toEqual([
      ['PO-1', '150.00', 2],
      ['PO-2', '50.00', 1],
    ]);
  });

  it('an ISK plan is invoiced in whole krónur', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const isk = await terms(org.api, { price: '1499', currency: 'ISK', code: 'isk' });
    await subscribe(org.api, account.code as string, isk.uuid, { quantity: 1 });
    await org.advance('2026-01-15T09:00:00.000Z');
    const [invoice] = await invoicesOf(org.api, account.code as string);
    // 1499 × 25 % = 374.75 → 375
    expect(document(invoice!)).toMatchObject({ subtotal: '1499', vat: '375', total: '1874', balance: '1874' });
  });

  it('draft lines: one joins the next renewal invoice, the other is invoiced by generate_invoice', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const code = account.code as string;
    const monthly = await terms(org.api);
    await subscribe(org.api, code, monthly.uuid);
    await org.advance('2026-01-15T09:00:00.000Z');
    const draft = (body: Json) =>
      org.api.post('/api/v1/draftinvoicelines/', {
        account: code,
        description: 'Setup',
        vat_type: 'services',
        price: '40.00',
        quantity: '1',
        currency: 'DKK',
        ...body,
      });
    const onboarding = await draft({ description: 'Onboarding', include_in_next_renewal_invoice: true });
    expectStatus(onboarding, 201);
    expectStatus(await draft({ description: 'Consulting', price: '80.00' }), 201);

    const generated = await org.api.post(`${accountPath(code)}generate_invoice/`, {});
    expectStatus(generated, 200);
    expect(
      (generated.body as Json[]).map((invoice) => [invoice.invoice_number, invoice.subtotal, invoice.total]),
    ).toEqual([[2, '80.00', '100.00']]);
    expect((await org.api.get(accountPath(code))).body.draftinvoiceline_set).toEqual([onboarding.body]);

    await org.advance('2026-02-15T09:00:00.000Z');
    // The renewal invoice took the waiting line: the account's set shows it gone once advance returns.
    expect((await org.api.get(accountPath(code))).body.draftinvoiceline_set).toEqual([]);
    const invoices = await invoicesOf(org.api, code);
    expect(document(invoices[2]!)).toMatchObject({
      invoice_number: 3,
      subtotal: '140.00',
      vat: '35.00',
      total: '175.00',
      lines: [
        ['2026-02-15', '2026-03-14', '100.00', '25.00'],
        [null, null, '40.00', '10.00'],
      ],
    });
  });

  it('subscribe replacing a subscription issues the credit and the new invoice at once', async () => {
    const org = await danishOrganization('2026-02-01T09:00:00.000Z');
    const account = await createAccount(org.api);
    const code = account.code as string;
    const monthly = await terms(org.api);
    await subscribe(org.api, code, monthly.uuid, { quantity: 2 });
    await org.advance('2026-02-11T12:00:00.000Z');
    expectStatus(
      await org.api.post(subscribePath(code), { terms: monthly.uuid, quantity: 3, collection_method: 'invoice' }),
      200,
    );
    await org.advance('2026-02-11T12:00:00.000Z');
    const invoices = await invoicesOf(org.api, code);
    expect(invoices.map((invoice) => [invoice.invoice_number, invoice.total])).toEqual([
      [1, '250.00'],
      [2, '-160.71'],
      [3, '375.00'],
    ]);
  });

  it("a credit note is dated the organization's day, not the UTC one", async () => {
    const org = await danishOrganization('2026-02-01T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    await subscribe(org.api, account.code as string, monthly.uuid);
    await org.advance('2026-02-01T09:00:00.000Z'); // returns once the first invoice is issued
    const [invoice] = await invoicesOf(org.api, account.code as string);
    expect(invoice?.date).toBe('2026-02-01');
    // 23:30 UTC on 10 February is already 11 February in Copenhagen.
    await org.advance('2026-02-10T23:30:00.000Z');

    const credited = await org.api.post(`${INVOICES}${invoice!.uuid}/credit/`);

    expectStatus(credited, 200);
    expect(document(credited.body as Json)).toMatchObject({
      invoice_number: 2,
      date: '2026-02-11',
      subtotal: '-100.00',
      vat: '-25.00',
      total: '-125.00',
      status: 'credited',
    });
  });

  it('cancel_invalid credits every invoice of the subscription in full', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    const subscription = await subscribe(org.api, account.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-02-15T09:00:00.000Z');
    expectStatus(
      await org.api.post(`${subscriptionPath(subscription.uuid)}cancel/`, { cancellation_type: 'cancel_invalid' }),
      200,
    );
    await org.advance('2026-02-15T09:00:00.000Z');
    const invoices = await invoicesOf(org.api, account.code as string);
    expect(invoices.map((invoice) => [invoice.invoice_number, invoice.total, invoice.balance, invoice.status])).toEqual(
      [
        [1, '250.00', '0.00', 'credited'],
        [2, '250.00', '0.00', 'credited'],
        [3, '-500.00', '0.00', 'credited'],
      ],
    );
  });

  it('an issued invoice is e-mailed with its PDF to the recipients that receive invoices', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    await createRecipient(org.api, account.uuid as string, { email: 'ap@example.invalid', receive_invoice: true });
    await createRecipient(org.api, account.uuid as string, { email: 'ceo@example.invalid', receive_invoice: false });
    const monthly = await terms(org.api);
    await subscribe(org.api, account.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-01-15T09:00:00.000Z');
    const [invoice] = await invoicesOf(org.api, account.code as string);

    const mail = await waitFor(
      async () => {
        for (const name of await readdir(platform().mailOutbox)) {
          const text = await readFile(path.join(platform().mailOutbox, name), 'utf8');
          // Invoice e-mails only (the subscription's start notice goes to this folder too).
          if (name.startsWith('invoice-') && text.includes('ap@example.invalid')) return { name, text };
        }
        return undefined;
      },
      { timeoutMs: 15_000, description: 'the invoice e-mail' },
    );
    expect(mail.name).toMatch(new RegExp(`^invoice-${invoice!.invoice_number}-`));
    expect(mail.text).not.toContain('ceo@example.invalid');
    expect(mail.text).toContain(`filename=invoice-${invoice!.invoice_number}.pdf`);
  });

  it('invoice.issued and invoice.paid reach the bus with the invoice as it then was', async () => {
    const org = await danishOrganization('2026-01-15T09:00:00.000Z');
    const account = await createAccount(org.api);
    const monthly = await terms(org.api);
    await subscribe(org.api, account.code as string, monthly.uuid, { quantity: 2 });
    await org.advance('2026-01-15T09:00:00.000Z');
    const [invoice] = await invoicesOf(org.api, account.code as string);
    expectStatus(
      await org.api.post(`${INVOICES}${invoice!.uuid}/register-payment/`, { registration_date: '2026-01-20' }),
      200,
    );

    const events = await platform().invoiceEvents(org.organizationId);
    expect(
      events.map((event) => [
        event.event_type,
        event.invoice.invoice_number,
        event.invoice.status,
        event.invoice.balance,
      ]),
    ).toEqual([
      ['invoice.issued', '1', 'open', '250.00'],
      ['invoice.paid', '1', 'paid', '0.00'],
    ]);
    expect(events[0]!.invoice).toMatchObject({ total: '250.00', vat: '50.00', currency: 'DKK', account: account.uuid });
    expect(events[0]!.invoice.lines).toHaveLength(1);
  });

  it("prints the seller's and the buyer's addresses and VAT numbers on the invoice", async () => {
    const organization = await newOrganization(platform(), {
      test_clock_time: '2026-01-15T09:00:00.000Z',
      name: 'Sælger ApS',
      address: 'Nørregade 1',
      zipcode: '1165',
      city: 'København K',
      vat_number: 'DK12345678',
    });
    const account = await createAccount(organization.api, uniqueCode(), {
      company_name: 'Beispiel GmbH',
      legal_address: 'Hauptstraße 5',
      legal_zipcode: '10115',
      legal_city: 'Berlin',
      legal_country: 'DE',
      legal_vat_number: 'DE123456789',
    });
    const monthly = await terms(organization.api);
    await subscribe(organization.api, account.code as string, monthly.uuid);
    expectStatus(await organization.api.post('/api/v1/test-clock/advance/', { to: '2026-01-15T09:00:00.000Z' }), 200);
    const [issued] = await platform().invoiceEvents(organization.organizationId);
    expect(issued!.invoice.seller).toEqual({
      name: 'Sælger ApS',
      address: 'Nørregade 1',
      zipcode: '1165',
      city: 'København K',
      country: 'DK',
      vat_number: 'DK12345678',
      email: '',
    });
    expect(issued!.invoice.buyer).toMatchObject({
      name: 'Beispiel GmbH',
      address: 'Hauptstraße 5',
      zipcode: '10115',
      city: 'Berlin',
      country: 'DE',
      vat_number: 'DE123456789',
    });
  });
});
