/**
 * Vocabulary of the invoice contract tests (api-spec "Invoice", "Invoices", gaps.md §3 and §7,
 * docs/api.md "Invoices"): paths, fixtures that make invoices the way integrators do (a
 * subscription through HTTP; the engine charges it and invoicing issues the invoice
 * asynchronously), and the exact shapes the API returns.
 */
import { waitFor } from '@billing/testing';
import { expect } from 'vitest';
import type { ApiClient } from '../support/platform.js';
import {
  accountPath,
  createAccount,
  createPlan,
  createPlanTerms,
  expectStatus,
  type Json,
  SCHEMA_PATTERN,
  UUID_PATTERN,
  uniqueCode,
} from './helpers.js';
import { embeddedAccount, SUBSCRIPTIONS } from './subscriptions-helpers.js';

export const INVOICES = '/api/v1/invoices/';
export const INVOICE_LINES = '/api/v1/invoicelines/';
export const DRAFT_LINES = '/api/v1/draftinvoicelines/';
export const invoicePath = (uuid: string): string => `${INVOICES}${uuid}/`;
export const invoiceLinePath = (id: number | string): string => `${INVOICE_LINES}${id}/`;
export const draftLinePath = (uuid: string): string => `${DRAFT_LINES}${uuid}/`;
export const generateInvoicePath = (code: string): string => `${accountPath(code)}generate_invoice/`;
export const upcomingInvoicePath = (code: string): string => `${accountPath(code)}upcoming-invoice/`;

/** Each multi-word invoice action with its hyphen and underscore path (gaps.md §2). */
export const ACTION_FORMS = {
  registerPayment: ['register-payment', 'register_payment'],
  changeCollectionMethod: ['change-collection-method', 'change_collection_method'],
  applyCreditNote: ['apply-credit-note', 'apply_credit_note'],
} as const;
export const actionPath = (uuid: string, action: string): string => `${invoicePath(uuid)}${action}/`;

export type Invoice = Json & { uuid: string; invoice_number: number };

/** A Danish account (the organization's country: 25% VAT), a VAT-collecting plan and its terms. */
export async function invoiceFixture(api: ApiClient, options: { account?: Json; plan?: Json; terms?: Json } = {}) {
  const account = await createAccount(api, uniqueCode(), { company_name: 'Acme ApS', ...options.account });
  const plan = await createPlan(api, uniqueCode('plan'), options.plan ?? {});
  const terms = await createPlanTerms(api, plan.uuid, { price: '100.00', currency: 'DKK', ...options.terms });
  return { account, plan, terms, code: account.code as string };
}

export type InvoiceFixture = Awaited<ReturnType<typeof invoiceFixture>>;

/** Creates a subscription through HTTP and returns it once. */
export async function subscribe(
  api: ApiClient,
  fixture: Pick<InvoiceFixture, 'code' | 'terms'>,
  body: Json = {},
): Promise<Json & { uuid: string }> {
  const response = await api.post(SUBSCRIPTIONS, {
    account: fixture.code,
    terms: fixture.terms.uuid,
    collection_method: 'invoice',
    ...body,
  });
  expectStatus(response, 201);
  return response.body;
}

/** Lists invoices with `query` until `count` of them are there (invoicing issues asynchronously). */
export async function waitForInvoices(api: ApiClient, query: string, count: number): Promise<Invoice[]> {
  return waitFor(
    async () => {
      const response = await api.get(`${INVOICES}?${query}`);
      expectStatus(response, 200);
      return response.body.count === count ? (response.body.results as Invoice[]) : undefined;
    },
    { timeoutMs: 20_000, description: `${count} invoices for ?${query}` },
  );
}

/** A subscription and, once invoicing has issued it, its first invoice in the detail view. */
export async function subscribeAndInvoice(
  api: ApiClient,
  fixture: Pick<InvoiceFixture, 'code' | 'terms'>,
  body: Json = {},
): Promise<{ subscription: Json & { uuid: string }; invoice: Invoice }> {
  const subscription = await subscribe(api, fixture, body);
  const [listed] = await waitForInvoices(api, `subscription_uuid=${subscription.uuid}`, 1);
  const detail = await api.get(invoicePath(listed!.uuid));
  expectStatus(detail, 200);
  return { subscription, invoice: detail.body };
}

/** GET the invoice list and return the invoice numbers of its results, in response order. */
export async function listNumbers(api: ApiClient, query: string): Promise<number[]> {
  const response = await api.get(`${INVOICES}?${query}`);
  expectStatus(response, 200);
  return (response.body.results as Invoice[]).map((invoice) => invoice.invoice_number);
}

const tag = (model: string) => ({ model, schema: expect.stringMatching(SCHEMA_PATTERN) });

/**
 * The invoice line a monthly subscription's first charge makes: quantity × 100.00 DKK at 25% VAT,
 * for 15 Jan - 14 Feb 2026.
 */
export function expectedChargeLine(
  fixture: InvoiceFixture,
  subscriptionUuid: string,
  invoiceUuid: string,
  quantity = 2,
) {
  const subtotal = (100 * quantity).toFixed(2);
  return {
    id: expect.any(Number),
    invoice: invoiceUuid,
    account: fixture.account.uuid,
    account_code: fixture.code,
    account_uuid: fixture.account.uuid,
    description: `${fixture.plan.name} (${fixture.terms.code})`,
    sku: fixture.plan.code,
    vat_type: fixture.plan.vat_type,
    collect_vat: true,
    date_from: '2026-01-15',
    date_to: '2026-02-14',
    price: '100',
    quantity: String(quantity),
    subtotal,
    vat: (25 * quantity).toFixed(2),
    total: (125 * quantity).toFixed(2),
    vat_rate: '25.00',
    currency: 'DKK',
    imported_line: false,
    refund_of: null,
    subscription: subscriptionUuid,
    terms: fixture.terms.uuid,
    sort_weight: expect.any(Number),
    draft_invoice_line_pk: null,
    product_id: fixture.plan.uuid,
    revenue_group_id: null,
    reference_person: '',
    account_reference_person: '',
    po_number: '',
    case_number: '',
    invoice_supplement: null,
    custom_fields: {},
    ...tag('invoice_line'),
  };
}

/** The fields list and detail views share for an invoice of `fixture`'s account issued on 15 Jan 2026. */
export function expectedInvoiceFields(fixture: InvoiceFixture, overrides: Json = {}): Json {
  return {
    uuid: expect.stringMatching(UUID_PATTERN),
    invoice_number: 1,
    external_invoice_number: '',
    account: embeddedAccount(fixture.account),
    account_uuid: fixture.account.uuid,
    account_code: fixture.code,
    pay_to_bank_account: null,
    date: '2026-01-15',
    due_date: '2026-01-29',
    currency: 'DKK',
    status: 'open',
    kickback_status: null,
    collection_method: 'invoice',
    imported: false,
    import_source: '',
    created_date: '2026-01-15T09:00:00.000Z',
    last_modified_date: '2026-01-15T09:00:00.000Z',
    is_credit_note: false,
    credit_note_for: null,
    payment_terms: 14,
    vat_breakdown: [{ rate: '25.00', base: '200.00', vat: '50.00', ...tag('vat_breakdown') }],
    reverse_charge: false,
    vat_note: '',
    einvoice_status: null,
    ...tag('invoice'),
    ...overrides,
  };
}

/** Decodes `pdf_base64` and checks it is a PDF document. */
export function expectPdf(pdfBase64: unknown): Buffer {
  expect(typeof pdfBase64).toBe('string');
  const pdf = Buffer.from(String(pdfBase64), 'base64');
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.subarray(-8).toString('latin1')).toContain('%%EOF');
  return pdf;
}
