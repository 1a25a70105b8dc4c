/**
 * Reseller billing (issue 13, gaps.md §3), end to end through HTTP on test clocks: a Danish
 * organization (DKK, 25 % VAT, 14 days' payment terms, Europe/Copenhagen). Accounts naming a
 * reseller (`reseller_code`) get no invoices of their own; their lines go to the reseller's
 * invoice of the collection day its `reseller_billing_frequency` gives, grouped as its
 * `reseller_billing_grouping` says, each line naming the resold account. A collection day's
 * invoice is issued once that day has ended on the organization's clock.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  NOT_FOUND,
  newOrganization,
  uniqueCode,
  usePlatform,
} from './helpers.js';

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

/** A reseller with `settings`, and two accounts it resells. */
async function resellerWithTwoAccounts(api: ApiClient, settings: Json) {
  const reseller = await createAccount(api, uniqueCode('reseller'), { company_name: 'Partner ApS', ...settings });
  const first = await createAccount(api, uniqueCode('shop'), {
    company_name: 'First Shop ApS',
    reseller_code: reseller.code,
  });
  const second = await createAccount(api, uniqueCode('shop'), {
    company_name: 'Second Shop ApS',
    reseller_code: reseller.code,
  });
  return { reseller, first, second };
}

async function monthlyTerms(api: ApiClient) {
  const plan = await createPlan(api, uniqueCode('plan'), { name: 'Pro' });
  return createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK', code: 'monthly' });
}

async function subscribe(api: ApiClient, account: Json, termsUuid: string, body: Json = {}) {
  const response = await api.post('/api/v1/subscriptions/', {
    account: account.code,
    terms: termsUuid,
    collection_method: 'invoice',
    ...body,
  });
  expectStatus(response, 201);
  return response.body as Json & { uuid: string };
}

/** The account's invoices, oldest number first, in detail shape. */
async function invoicesOf(api: ApiClient, account: Json): Promise<Json[]> {
  const list = await api.get(`${INVOICES}?account=${account.code}&ordering=invoice_number&page_size=100`);
  expectStatus(list, 200);
  const details = [];
  for (const invoice of (list.body as { results: Json[] }).results) {
    const detail = await api.get(`${INVOICES}${invoice.uuid}/`);
    expectStatus(detail, 200);
    details.push(detail.body as Json);
  }
  return details;
}

/** What a person checks on a reseller's document: its account, dates, totals and lines. */
function document(invoice: Json) {
  return {
    account_code: invoice.account_code,
    date: invoice.date,
    due_date: invoice.due_date,
    status: invoice.status,
    subtotal: invoice.subtotal,
    vat: invoice.vat,
    total: invoice.total,
    lines: (invoice.invoiceline_set as Json[])
      .map((line) => ({
        account_code: line.account_code,
        account_uuid: line.account_uuid,
        date_from: line.date_from,
        date_to: line.date_to,
        quantity: line.quantity,
        subtotal: line.subtotal,
        vat: line.vat,
        total: line.total,
        po_number: line.po_number,
      }))
      .sort((a, b) =>
        `${a.date_from}${a.quantity}${a.po_number}`.localeCompare(`${b.date_from}${b.quantity}${b.po_number}`),
      ),
  };
}

const line = (account: Json, from: string, to: string, quantity: number, poNumber = '') => ({
  account_code: account.code,
  account_uuid: account.uuid,
  date_from: from,
  date_to: to,
  quantity: String(quantity),
  subtotal: (100 * quantity).toFixed(2),
  vat: (25 * quantity).toFixed(2),
  total: (125 * quantity).toFixed(2),
  po_number: poNumber,
});

describe('end_of_month reseller, grouped by currency', () => {
  it("two resold accounts' lines of a month are one invoice to the reseller on the month's last day; the accounts get none", async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first, second } = await resellerWithTwoAccounts(org.api, {
      reseller_billing_frequency: 'end_of_month',
      reseller_billing_grouping: 'currency',
    });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1 });
    await subscribe(org.api, second, monthly.uuid, { quantity: 2, start_date: '2026-01-20T09:00:00.000Z' });

    // The month's last day, before it ends in Copenhagen: still collecting.
    await org.advance('2026-01-31T22:00:00.000Z');
    expect(await invoicesOf(org.api, reseller)).toEqual([]);

    // 00:30 on 1 February in Copenhagen: January's collection has ended.
    await org.advance('2026-01-31T23:30:00.000Z');
    const january = await invoicesOf(org.api, reseller);
    expect(january.map(document)).toEqual([
      {
        account_code: reseller.code,
        date: '2026-01-31',
        due_date: '2026-02-14',
        status: 'open',
        subtotal: '300.00',
        vat: '75.00',
        total: '375.00',
        lines: [line(first, '2026-01-05', '2026-02-04', 1), line(second, '2026-01-20', '2026-02-19', 2)],
      },
    ]);
    expect(january[0]!.invoice_number).toBe(1);

    // February's renewals (the 5th and the 20th) are February's invoice, issued when the 28th ends.
    await org.advance('2026-02-28T12:00:00.000Z');
    expect(await invoicesOf(org.api, reseller)).toHaveLength(1);
    await org.advance('2026-03-01T09:00:00.000Z');
    const [, february] = await invoicesOf(org.api, reseller);
    expect(document(february!)).toEqual({
      account_code: reseller.code,
      date: '2026-02-28',
      due_date: '2026-03-14',
      status: 'open',
      subtotal: '300.00',
      vat: '75.00',
      total: '375.00',
      lines: [line(first, '2026-02-05', '2026-03-04', 1), line(second, '2026-02-20', '2026-03-19', 2)],
    });
    expect(february!.invoice_number).toBe(2);

    expect(await invoicesOf(org.api, first)).toEqual([]);
    expect(await invoicesOf(org.api, second)).toEqual([]);
    const lines = await org.api.get(`/api/v1/invoicelines/?account=${first.code}`);
    expectStatus(lines, 200);
    expect((lines.body.results as Json[]).map((row) => [row.invoice, row.date_from])).toEqual([
      [january[0]!.uuid, '2026-01-05'],
      [february!.uuid, '2026-02-05'],
    ]);
  });
});

describe('end_of_month reseller, grouped by currency and resold account', () => {
  it('makes one invoice per resold account at the month’s end', async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first, second } = await resellerWithTwoAccounts(org.api, {
      reseller_billing_frequency: 'end_of_month',
      reseller_billing_grouping: 'currency_resold_account',
    });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1, po_number: 'PO-1' });
    await subscribe(org.api, first, monthly.uuid, { quantity: 3, po_number: 'PO-2' });
    await subscribe(org.api, second, monthly.uuid, { quantity: 2, start_date: '2026-01-20T09:00:00.000Z' });

    await org.advance('2026-02-01T09:00:00.000Z');
    const invoices = (await invoicesOf(org.api, reseller)).map(document);
    expect(invoices.sort((a, b) => String(a.lines[0]!.date_from).localeCompare(String(b.lines[0]!.date_from)))).toEqual(
      [
        {
          account_code: reseller.code,
          date: '2026-01-31',
          due_date: '2026-02-14',
          status: 'open',
          subtotal: '400.00',
          vat: '100.00',
          total: '500.00',
          lines: [
            line(first, '2026-01-05', '2026-02-04', 1, 'PO-1'),
            line(first, '2026-01-05', '2026-02-04', 3, 'PO-2'),
          ],
        },
        {
          account_code: reseller.code,
          date: '2026-01-31',
          due_date: '2026-02-14',
          status: 'open',
          subtotal: '200.00',
          vat: '50.00',
          total: '250.00',
          lines: [line(second, '2026-01-20', '2026-02-19', 2)],
        },
      ],
    );
    expect(await invoicesOf(org.api, first)).toEqual([]);

    // Crediting the second account's invoice: the credit note goes to the reseller, its line naming that account.
    const [secondsInvoice] = (await invoicesOf(org.api, reseller)).filter(
      (invoice) => (invoice.invoiceline_set as Json[])[0]!.account_code === second.code,
    );
    const credited = await org.api.post(`${INVOICES}${secondsInvoice!.uuid}/credit/`, {});
    expectStatus(credited, 200);
    expect(document(credited.body)).toEqual({
      account_code: reseller.code,
      date: '2026-02-01',
      due_date: '2026-02-14',
      status: 'credited',
      subtotal: '-200.00',
      vat: '-50.00',
      total: '-250.00',
      lines: [{ ...line(second, '2026-01-20', '2026-02-19', 2), subtotal: '-200.00', vat: '-50.00', total: '-250.00' }],
    });
  });
});

describe('end_of_month reseller, grouped by currency, resold account and PO number', () => {
  it('makes one invoice per resold account and PO number, showing the PO number', async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first, second } = await resellerWithTwoAccounts(org.api, {
      reseller_billing_frequency: 'end_of_month',
      reseller_billing_grouping: 'currency_resold_account_po_number',
    });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1, po_number: 'PO-1' });
    await subscribe(org.api, first, monthly.uuid, { quantity: 3, po_number: 'PO-2' });
    await subscribe(org.api, first, monthly.uuid, {
      quantity: 2,
      po_number: 'PO-1',
      start_date: '2026-01-10T09:00:00.000Z',
    });
    await subscribe(org.api, second, monthly.uuid, { quantity: 2, po_number: 'PO-1' });

    await org.advance('2026-02-01T09:00:00.000Z');
    const invoices = (await invoicesOf(org.api, reseller)).map(document);
    const label = (invoice: ReturnType<typeof document>) =>
      `${invoice.lines[0]!.account_code}/${invoice.lines[0]!.po_number}`;
    const expected = [
      {
        subtotal: '300.00',
        vat: '75.00',
        total: '375.00',
        lines: [line(first, '2026-01-05', '2026-02-04', 1, 'PO-1'), line(first, '2026-01-10', '2026-02-09', 2, 'PO-1')],
      },
      {
        subtotal: '300.00',
        vat: '75.00',
        total: '375.00',
        lines: [line(first, '2026-01-05', '2026-02-04', 3, 'PO-2')],
      },
      {
        subtotal: '200.00',
        vat: '50.00',
        total: '250.00',
        lines: [line(second, '2026-01-05', '2026-02-04', 2, 'PO-1')],
      },
    ].map((parts) => ({
      account_code: reseller.code,
      date: '2026-01-31',
      due_date: '2026-02-14',
      status: 'open',
      ...parts,
    }));
    expect(invoices.sort((a, b) => label(a).localeCompare(label(b)))).toEqual(
      expected.sort((a, b) => label(a).localeCompare(label(b))),
    );
  });
});

describe('daily reseller', () => {
  it("collects a day's lines onto one invoice dated that day, issued when the day ends", async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first, second } = await resellerWithTwoAccounts(org.api, {
      reseller_billing_frequency: 'daily',
      default_payment_terms: 30,
    });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1 });
    await subscribe(org.api, second, monthly.uuid, { quantity: 2 });
    await subscribe(org.api, second, monthly.uuid, { quantity: 1, start_date: '2026-01-06T09:00:00.000Z' });

    await org.advance('2026-01-05T22:30:00.000Z');
    expect(await invoicesOf(org.api, reseller)).toEqual([]);

    // 00:30 on the 6th in Copenhagen: the 5th is invoiced; the 6th's line waits for its day's end.
    await org.advance('2026-01-05T23:30:00.000Z');
    await org.advance('2026-01-06T10:00:00.000Z');
    const [fifth, ...rest] = await invoicesOf(org.api, reseller);
    expect(rest).toEqual([]);
    expect(document(fifth!)).toEqual({
      account_code: reseller.code,
      date: '2026-01-05',
      due_date: '2026-02-04',
      status: 'open',
      subtotal: '300.00',
      vat: '75.00',
      total: '375.00',
      lines: [line(first, '2026-01-05', '2026-02-04', 1), line(second, '2026-01-05', '2026-02-04', 2)],
    });

    await org.advance('2026-01-07T00:00:00.000Z');
    const [, sixth] = await invoicesOf(org.api, reseller);
    expect(document(sixth!)).toMatchObject({
      date: '2026-01-06',
      due_date: '2026-02-05',
      total: '125.00',
      lines: [line(second, '2026-01-06', '2026-02-05', 1)],
    });
    expect([...(await invoicesOf(org.api, first)), ...(await invoicesOf(org.api, second))]).toEqual([]);
  });
});

describe('end_of_week reseller', () => {
  it('collects Monday to Sunday onto one invoice dated the Sunday, issued when the Sunday ends', async () => {
    // 2026-01-05 is a Monday.
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first, second } = await resellerWithTwoAccounts(org.api, {
      reseller_billing_frequency: 'end_of_week',
    });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1 });
    await subscribe(org.api, second, monthly.uuid, { quantity: 2, start_date: '2026-01-08T09:00:00.000Z' });

    await org.advance('2026-01-11T22:00:00.000Z');
    expect(await invoicesOf(org.api, reseller)).toEqual([]);
    await org.advance('2026-01-11T23:30:00.000Z');
    expect((await invoicesOf(org.api, reseller)).map(document)).toEqual([
      {
        account_code: reseller.code,
        date: '2026-01-11',
        due_date: '2026-01-25',
        status: 'open',
        subtotal: '300.00',
        vat: '75.00',
        total: '375.00',
        lines: [line(first, '2026-01-05', '2026-02-04', 1), line(second, '2026-01-08', '2026-02-07', 2)],
      },
    ]);
  });
});

describe('a draft line waiting for the next renewal of a resold account', () => {
  it("joins the reseller's invoice with the renewal, naming the account", async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first } = await resellerWithTwoAccounts(org.api, { reseller_billing_frequency: 'daily' });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1 });
    await org.advance('2026-01-06T09:00:00.000Z');
    const draft = await org.api.post('/api/v1/draftinvoicelines/', {
      account: first.code,
      description: 'Onboarding',
      vat_type: 'services',
      price: '40.00',
      quantity: '1',
      currency: 'DKK',
      include_in_next_renewal_invoice: true,
    });
    expectStatus(draft, 201);

    await org.advance('2026-02-06T09:00:00.000Z');
    const [, renewal] = await invoicesOf(org.api, reseller);
    expect({
      date: renewal!.date,
      total: renewal!.total,
      lines: (renewal!.invoiceline_set as Json[]).map((row) => [row.account_code, row.date_from, row.subtotal]),
    }).toEqual({
      date: '2026-02-05',
      total: '175.00',
      lines: [
        [first.code, '2026-02-05', '100.00'],
        [first.code, null, '40.00'],
      ],
    });
    expect(await invoicesOf(org.api, first)).toEqual([]);
  });
});

describe('generate_invoice of a resold account', () => {
  it("invoices the account's draft lines to the reseller at once, each line naming the account", async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first } = await resellerWithTwoAccounts(org.api, { reseller_billing_frequency: 'end_of_month' });
    const draft = await org.api.post('/api/v1/draftinvoicelines/', {
      account: first.code,
      description: 'Setup',
      vat_type: 'services',
      price: '40.00',
      quantity: '2',
      currency: 'DKK',
    });
    expectStatus(draft, 201);

    const generated = await org.api.post(`/api/v1/accounts/${first.code}/generate_invoice/`, {});
    expectStatus(generated, 200);
    expect(
      (generated.body as Json[]).map((invoice) => ({
        account_code: invoice.account_code,
        date: invoice.date,
        due_date: invoice.due_date,
        total: invoice.total,
        lines: (invoice.invoiceline_set as Json[]).map((row) => [
          row.account_code,
          row.description,
          row.subtotal,
          row.vat,
        ]),
      })),
    ).toEqual([
      {
        account_code: reseller.code,
        date: '2026-01-05',
        due_date: '2026-01-19',
        total: '100.00',
        lines: [[first.code, 'Setup', '80.00', '20.00']],
      },
    ]);
    expect(await invoicesOf(org.api, first)).toEqual([]);
    expect((await invoicesOf(org.api, reseller)).map((invoice) => invoice.uuid)).toEqual([
      (generated.body as Json[])[0]!.uuid,
    ]);
  });
});

describe('upcoming-invoice of a resold account', () => {
  it("previews the next renewal's lines made out to the reseller on their collection day", async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first } = await resellerWithTwoAccounts(org.api, {
      reseller_billing_frequency: 'end_of_month',
      default_payment_terms: 30,
    });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 2 });
    await org.advance('2026-01-05T10:00:00.000Z');

    const upcoming = await org.api.post(`/api/v1/accounts/${first.code}/upcoming-invoice/`, {});
    expectStatus(upcoming, 200);
    expect({ ...document(upcoming.body), account_uuid: upcoming.body.account_uuid }).toEqual({
      account_code: reseller.code,
      account_uuid: reseller.uuid,
      date: '2026-02-28',
      due_date: '2026-03-30',
      status: 'upcoming',
      subtotal: '200.00',
      vat: '50.00',
      total: '250.00',
      lines: [line(first, '2026-02-05', '2026-03-04', 2)],
    });
  });
});

describe('another organization', () => {
  it('invoices its own accounts as before and sees nothing of a reseller elsewhere', async () => {
    const org = await danishOrganization('2026-01-05T09:00:00.000Z');
    const { reseller, first } = await resellerWithTwoAccounts(org.api, { reseller_billing_frequency: 'daily' });
    const monthly = await monthlyTerms(org.api);
    await subscribe(org.api, first, monthly.uuid, { quantity: 1 });

    const other = await danishOrganization('2026-01-05T09:00:00.000Z');
    const account = await createAccount(other.api, uniqueCode(), { company_name: 'Own ApS' });
    const otherTerms = await monthlyTerms(other.api);
    await subscribe(other.api, account, otherTerms.uuid, { quantity: 1 });
    await other.advance('2026-01-05T10:00:00.000Z');
    await org.advance('2026-01-06T10:00:00.000Z');

    const [own] = await invoicesOf(other.api, account);
    expect(document(own!)).toEqual({
      account_code: account.code,
      date: '2026-01-05',
      due_date: '2026-01-19',
      status: 'open',
      subtotal: '100.00',
      vat: '25.00',
      total: '125.00',
      lines: [line(account, '2026-01-05', '2026-02-04', 1)],
    });
    expect(own!.invoice_number).toBe(1);
    const list = await other.api.get(`${INVOICES}?page_size=100`);
    expect((list.body.results as Json[]).map((invoice) => invoice.uuid)).toEqual([own!.uuid]);

    const [resold] = await invoicesOf(org.api, reseller);
    expect(resold!.invoice_number).toBe(1);
    expect(await other.api.get(`${INVOICES}${resold!.uuid}/`)).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});
