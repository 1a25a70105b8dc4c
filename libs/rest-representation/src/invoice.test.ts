import type { accountsV1, invoicingV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import {
  decimalToNumber,
  presentInvoice,
  presentInvoiceLine,
  presentInvoiceListItem,
  presentKickback,
  shownKickbackStatus,
} from './invoice.js';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const INVOICE = '22222222-2222-4222-8222-222222222222';

const summary: accountsV1.AccountSummary = {
  uuid: ACCOUNT,
  code: 'acme-now',
  display_name: 'Acme ApS',
  company_name: 'Acme ApS',
  type: 'company',
};
const accounts = new Map([[ACCOUNT, summary]]);

function line(overrides: Partial<invoicingV1.InvoiceLine> = {}): invoicingV1.InvoiceLine {
  return {
    id: '7',
    invoice: INVOICE,
    account: ACCOUNT,
    account_code: 'acme-then',
    description: 'Pro',
    sku: '',
    vat_type: 'services',
    collect_vat: true,
    date_from: '2026-01-15',
    date_to: '2026-02-14',
    price: '100',
    quantity: '2',
    subtotal: '200.00',
    vat: '50.00',
    total: '250.00',
    currency: 'DKK',
    imported_line: false,
    sort_weight: 0,
    reference_person: '',
    account_reference_person: '',
    po_number: '',
    case_number: '',
    vat_rate: '25.00',
    ...overrides,
  };
}

function invoice(overrides: Partial<invoicingV1.Invoice> = {}): invoicingV1.Invoice {
  return {
    uuid: INVOICE,
    invoice_number: '1',
    external_invoice_number: '',
    account: ACCOUNT,
    account_code: 'acme-then',
    date: '2026-01-15',
    due_date: '2026-01-29',
    currency: 'DKK',
    status: 'open',
    collection_method: 'invoice',
    total: '250.00',
    subtotal: '200.00',
    vat: '50.00',
    balance: '250.00',
    imported: false,
    import_source: '',
    lines: [line()],
    created_date: new Date('2026-01-15T09:00:00.000Z'),
    last_modified_date: new Date('2026-01-15T09:00:00.000Z'),
    is_credit_note: false,
    payment_terms: 14,
    vat_breakdown: [{ rate: '25.00', base: '200.00', vat: '50.00' }],
    reverse_charge: false,
    vat_note: '',
    language: 'en',
    po_number: '',
    version: 1,
    reminders: [],
    ...overrides,
  };
}

describe('decimalToNumber', () => {
  it('reads decimal text as the JSON number of the same amount', () => {
    expect(decimalToNumber('250.00')).toBe(250);
    expect(decimalToNumber('1499')).toBe(1499);
    expect(decimalToNumber('-250.00')).toBe(-250);
    expect(decimalToNumber('0.10')).toBe(0.1);
    expect(decimalToNumber('12345678901234.99')).toBe(12345678901234.99);
    expect(JSON.stringify(decimalToNumber('19.99'))).toBe('19.99');
  });

  it('refuses text that is not a plain decimal rather than sending 0 or NaN', () => {
    for (const text of ['', ' ', '1e3', 'abc', '1.', '.5', '0x10']) {
      expect(() => decimalToNumber(text), text).toThrow();
    }
  });
});

describe('the list view', () => {
  it('has the totals as numbers, the account embedded by its current code, and no lines, PDF or URL', () => {
    const item = presentInvoiceListItem(invoice(), { accounts, kickbackEnabled: false });

    expect(item).toMatchObject({
      uuid: INVOICE,
      invoice_number: 1,
      account_uuid: ACCOUNT,
      account_code: 'acme-now',
      account: { uuid: ACCOUNT, code: 'acme-now', display_name: 'Acme ApS', model: 'account' },
      total: 250,
      subtotal: 200,
      vat: 50,
      balance: 250,
      kickback_status: null,
      credit_note_for: null,
      pay_to_bank_account: null,
      model: 'invoice',
    });
    expect(item).not.toHaveProperty('invoiceline_set');
    expect(item).not.toHaveProperty('pdf_base64');
    expect(item).not.toHaveProperty('invoice_api_url');
  });
});

describe('kickback_status', () => {
  it('shows the stored status only while the kickback feature is on', () => {
    const flagged = invoice({ kickback_status: 'commission_paid' });
    expect(presentInvoiceListItem(flagged, { accounts, kickbackEnabled: true }).kickback_status).toBe(
      'commission_paid',
    );
    expect(presentInvoiceListItem(flagged, { accounts, kickbackEnabled: false }).kickback_status).toBeNull();
    expect(presentInvoice(flagged, { accounts, kickbackEnabled: false }, { apiUrl: null }).kickback_status).toBeNull();
    expect(shownKickbackStatus(undefined, true)).toBeNull();
    expect(presentKickback('commission_pending', true).kickback_status).toBe('commission_pending');
    expect(presentKickback('commission_pending', false).kickback_status).toBeNull();
  });
});

describe('the detail view', () => {
  it('has the totals as strings, the lines, the URL and the PDF as base64', () => {
    const pdf = new Uint8Array(Buffer.from('%PDF-1.7 test'));
    const detail = presentInvoice(
      invoice(),
      { accounts, kickbackEnabled: false },
      { apiUrl: 'http://h/api/v1/invoices/x/', pdf },
    );

    expect(detail).toMatchObject({ total: '250.00', subtotal: '200.00', vat: '50.00', balance: '250.00' });
    expect(detail.invoice_api_url).toBe('http://h/api/v1/invoices/x/');
    expect(Buffer.from(detail.pdf_base64!, 'base64').toString()).toBe('%PDF-1.7 test');
    expect(detail.invoiceline_set).toHaveLength(1);
    expect(detail.vat_breakdown).toEqual([
      { rate: '25.00', base: '200.00', vat: '50.00', model: 'vat_breakdown', schema: '2026-11-22-vat_breakdown' },
    ]);
  });

  it('shows a computed invoice with null uuid, number and URL, and its lines without ids', () => {
    const computed = invoice({ uuid: '', invoice_number: undefined, lines: [line({ id: '0', invoice: '' })] });

    const detail = presentInvoice(computed, { accounts, kickbackEnabled: false }, { apiUrl: null });

    expect(detail).toMatchObject({ uuid: null, invoice_number: null, invoice_api_url: null });
    expect(detail).not.toHaveProperty('pdf_base64');
    expect(detail.invoiceline_set[0]).toMatchObject({ id: null, invoice: null });
  });
});

describe('an invoice line', () => {
  it('has an integer id, unset optionals as null, and the account’s current code', () => {
    expect(presentInvoiceLine(line({ refund_of: '3', revenue_group_id: 4 }), accounts)).toEqual({
      id: 7,
      invoice: INVOICE,
      account: ACCOUNT,
      account_code: 'acme-now',
      account_uuid: ACCOUNT,
      description: 'Pro',
      sku: '',
      vat_type: 'services',
      collect_vat: true,
      date_from: '2026-01-15',
      date_to: '2026-02-14',
      price: '100',
      quantity: '2',
      subtotal: '200.00',
      vat: '50.00',
      total: '250.00',
      vat_rate: '25.00',
      currency: 'DKK',
      imported_line: false,
      refund_of: 3,
      subscription: null,
      terms: null,
      sort_weight: 0,
      draft_invoice_line_pk: null,
      product_id: null,
      revenue_group_id: 4,
      reference_person: '',
      account_reference_person: '',
      po_number: '',
      case_number: '',
      invoice_supplement: null,
      custom_fields: {},
      model: 'invoice_line',
      schema: '2026-11-22-invoice_line',
    });
  });

  it('keeps its own code when the account is not known any more', () => {
    expect(presentInvoiceLine(line(), new Map()).account_code).toBe('acme-then');
  });
});
