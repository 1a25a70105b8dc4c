import { bisViolations, parseUbl, ublAll, ublText } from '@billing/testing';
import { describe, expect, it } from 'vitest';
import { einvoiceDocument } from '../domain/einvoice/einvoice-document.js';
import type { EinvoiceSnapshot } from '../domain/einvoice/einvoice-snapshot.js';
import type { InvoiceLineView, InvoiceView } from '../domain/invoice-view.js';
import { renderUbl } from './ubl.js';

const snapshot: EinvoiceSnapshot = {
  format: 'peppol_bis',
  buyer_endpoint: { scheme: '0088', id: '5790000435975' },
  seller_endpoint: { scheme: '0184', id: '12345678' },
  intermediator: null,
  field_mappings: [],
  on_test_clock: false,
};

function line(overrides: Partial<InvoiceLineView>): InvoiceLineView {
  return {
    id: '1',
    invoice: 'i',
    account: 'a',
    account_code: 'acme',
    description: 'Pro (monthly)',
    sku: '',
    vat_type: 'services',
    collect_vat: true,
    date_from: '2026-02-01',
    date_to: '2026-02-28',
    price: '100',
    quantity: '3',
    subtotal: '300.00',
    vat: '75.00',
    total: '375.00',
    currency: 'DKK',
    imported_line: false,
    refund_of: null,
    subscription: null,
    terms: null,
    sort_weight: 1,
    draft_invoice_line_pk: null,
    product_id: null,
    reference_person: '',
    account_reference_person: '',
    po_number: '',
    case_number: '',
    invoice_supplement: null,
    custom_fields: {},
    vat_rate: '25.00',
    pricing: {},
    ...overrides,
  };
}

function invoice(overrides: Partial<InvoiceView>): InvoiceView {
  const view: InvoiceView = {
    uuid: 'u',
    invoice_number: '7',
    external_invoice_number: '',
    account: 'a',
    account_code: 'acme',
    pay_to_bank_account: 1,
    date: '2026-02-01',
    due_date: '2026-02-15',
    currency: 'DKK',
    status: 'open',
    kickback_status: null,
    collection_method: 'invoice',
    total: '375.00',
    subtotal: '300.00',
    vat: '75.00',
    balance: '375.00',
    imported: false,
    import_source: '',
    lines: [line({})],
    created_date: new Date('2026-02-01T08:00:00Z'),
    last_modified_date: new Date('2026-02-01T08:00:00Z'),
    is_credit_note: false,
    credit_note_for: null,
    payment_terms: 14,
    vat_breakdown: [{ rate: '25.00', base: '300.00', vat: '75.00' }],
    reverse_charge: false,
    vat_note: '',
    seller: {
      name: 'Seller ApS',
      address: 'Vesterbrogade 1',
      zipcode: '1620',
      city: 'København V',
      country: 'DK',
      vat_number: 'DK12345678',
      email: 'billing@seller.dk',
    },
    buyer: {
      name: 'Acme A/S',
      address: 'Strandvejen 2',
      zipcode: '2900',
      city: 'Hellerup',
      country: 'DK',
      vat_number: 'DK87654321',
      email: 'ap@acme.dk',
    },
    language: 'en',
    po_number: '',
    bank_account: {
      id: 1,
      currency: null,
      iban: 'DK5000400440116243',
      bic: 'DABADKKK',
      reg_number: '',
      account_number: '',
    },
    version: 1,
    einvoice_status: 'pending',
  };
  return { ...view, ...overrides };
}

const ubl = (view: InvoiceView, creditedInvoiceNumber: string | null = null) =>
  renderUbl(einvoiceDocument(view, snapshot, { creditedInvoiceNumber }));

describe('Peppol BIS Billing 3.0 UBL', () => {
  it('a domestic invoice: required elements, endpoints, S at 25 %, totals to the cent', () => {
    const xml = ubl(invoice({}));
    expect(bisViolations(xml)).toEqual([]);
    const root = parseUbl(xml);
    expect(root.localName).toBe('Invoice');
    expect(ublText(root, 'cbc:InvoiceTypeCode')).toBe('380');
    expect(ublText(root, 'cbc:DueDate')).toBe('2026-02-15');
    const buyerEndpoint = ublAll(root, 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID')[0]!;
    expect([buyerEndpoint.textContent, buyerEndpoint.getAttribute('schemeID')]).toEqual(['5790000435975', '0088']);
    const sellerEndpoint = ublAll(root, 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID')[0]!;
    expect([sellerEndpoint.textContent, sellerEndpoint.getAttribute('schemeID')]).toEqual(['12345678', '0184']);
    expect(ublText(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('S');
    expect(ublText(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).toBe('25.00');
    expect(ublText(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('375.00');
    expect(ublText(root, 'cac:PaymentMeans/cbc:PaymentMeansCode')).toBe('58');
    expect(ublText(root, 'cac:PaymentMeans/cbc:PaymentID')).toBe('7');
    // No reference mapped or given: the account's code is the buyer reference (R003).
    expect(ublText(root, 'cbc:BuyerReference')).toBe('acme');
    expect(ublText(root, 'cbc:AccountingCost')).toBe('acme');
  });

  it('reverse charge to another EU state: AE with the exemption code and the PDF note, both VAT identifiers', () => {
    const buyer = { ...invoice({}).buyer, country: 'DE', vat_number: 'DE123456789' };
    const view = invoice({
      buyer,
      lines: [line({ vat: '0.00', total: '300.00', vat_rate: '0.00' })],
      vat: '0.00',
      total: '300.00',
      balance: '300.00',
      reverse_charge: true,
      vat_breakdown: [{ rate: '0.00', base: '300.00', vat: '0.00' }],
    });
    const xml = ubl(view);
    expect(bisViolations(xml)).toEqual([]);
    const category = ublAll(parseUbl(xml), 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory')[0]!;
    expect(ublText(category, 'cbc:ID')).toBe('AE');
    expect(ublText(category, 'cbc:TaxExemptionReasonCode')).toBe('VATEX-EU-AE');
    expect(ublText(category, 'cbc:TaxExemptionReason')).toMatch(/^Reverse charge/);
    expect(ublText(parseUbl(xml), 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).toBe(
      'DE123456789',
    );
  });

  it('goods to another EU state are K with a deliver-to country; goods outside the EU G; services outside O', () => {
    const de = { ...invoice({}).buyer, country: 'DE', vat_number: 'DE123456789' };
    const zeroLine = line({ vat: '0.00', total: '300.00', vat_rate: '0.00', vat_type: 'physical' });
    const zero = { vat: '0.00', total: '300.00', balance: '300.00', vat_breakdown: [] };
    const k = ubl(invoice({ buyer: de, lines: [zeroLine], ...zero }));
    expect(bisViolations(k)).toEqual([]);
    expect(ublText(parseUbl(k), 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('K');
    expect(
      ublText(parseUbl(k), 'cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode'),
    ).toBe('DE');
    const us = { ...invoice({}).buyer, country: 'US', vat_number: '' };
    const g = ubl(invoice({ buyer: us, lines: [zeroLine], ...zero }));
    expect(bisViolations(g)).toEqual([]);
    expect(ublText(parseUbl(g), 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('G');
    const o = ubl(invoice({ buyer: us, lines: [line({ vat: '0.00', total: '300.00', vat_rate: '0.00' })], ...zero }));
    expect(bisViolations(o)).toEqual([]);
    const oRoot = parseUbl(o);
    expect(ublText(oRoot, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toBe('O');
    expect(ublText(oRoot, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).toBeNull();
    expect(ublAll(oRoot, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme')).toEqual([]);
  });

  it('a plan without VAT next to a taxed one: its line is exempt (E) with the note, not O (BR-O-11)', () => {
    const view = invoice({
      lines: [line({}), line({ id: '2', collect_vat: false, vat: '0.00', total: '300.00', vat_rate: '0.00' })],
      subtotal: '600.00',
      total: '675.00',
      balance: '675.00',
      vat_breakdown: [
        { rate: '25.00', base: '300.00', vat: '75.00' },
        { rate: '0.00', base: '300.00', vat: '0.00' },
      ],
    });
    const xml = ubl(view);
    expect(bisViolations(xml)).toEqual([]);
    const categories = ublAll(parseUbl(xml), 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory');
    expect(categories.map((category) => ublText(category, 'cbc:ID'))).toEqual(['S', 'E']);
    expect(ublText(categories[1]!, 'cbc:TaxExemptionReason')).toBe('The plan does not collect VAT.');
    expect(ublText(parseUbl(xml), 'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory/cbc:ID')).toBe('S');
  });

  it('a credit note is a CreditNote: positive amounts, CreditedQuantity, the invoice it credits', () => {
    const view = invoice({
      is_credit_note: true,
      invoice_number: '8',
      credit_note_for: 'u7',
      total: '-375.00',
      subtotal: '-300.00',
      vat: '-75.00',
      balance: '0.00',
      // A credited line keeps the quantity and price of the line it reverses; its amounts turn negative.
      lines: [line({ subtotal: '-300.00', vat: '-75.00', total: '-375.00', refund_of: '1' })],
      vat_breakdown: [{ rate: '25.00', base: '-300.00', vat: '-75.00' }],
    });
    const xml = ubl(view, '7');
    expect(bisViolations(xml)).toEqual([]);
    const root = parseUbl(xml);
    expect(root.localName).toBe('CreditNote');
    expect(ublText(root, 'cbc:CreditNoteTypeCode')).toBe('381');
    expect(ublText(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe('7');
    expect(ublText(root, 'cac:CreditNoteLine/cbc:CreditedQuantity')).toBe('3');
    expect(ublText(root, 'cac:CreditNoteLine/cac:Price/cbc:PriceAmount')).toBe('100');
    expect(ublText(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount')).toBe('375.00');
    expect(ublAll(root, 'cbc:DueDate')).toEqual([]);
  });

  it('a change invoice with a credit line: negative quantity at a positive price, VAT per rate rounded once', () => {
    const view = invoice({
      lines: [
        line({ id: '1', price: '-33.335', quantity: '1', subtotal: '-33.34', vat: '-8.34', total: '-41.68' }),
        line({ id: '2', price: '66.665', quantity: '1', subtotal: '66.67', vat: '16.67', total: '83.34' }),
      ],
      subtotal: '33.33',
      vat: '8.33',
      total: '41.66',
      balance: '41.66',
      vat_breakdown: [{ rate: '25.00', base: '33.33', vat: '8.33' }],
    });
    const xml = ubl(view);
    expect(bisViolations(xml)).toEqual([]);
    expect(ublText(parseUbl(xml), 'cac:InvoiceLine/cbc:InvoicedQuantity')).toBe('-1');
  });

  it('the field mappings fill BT-10, BT-11, BT-13, BT-22 and BT-56 from the lines (defaults and an imported one)', () => {
    const view = invoice({
      po_number: 'PO-9',
      lines: [
        line({
          reference_person: 'Ada',
          account_reference_person: 'Bo',
          case_number: 'C-1',
          invoice_supplement: 'Seats for Q1',
          custom_fields: { 'f0e1d2c3-0000-4000-8000-000000000001': 'K-77' },
        }),
      ],
    });
    const mapped = {
      ...snapshot,
      field_mappings: [
        {
          target_field: 'contract_reference',
          source_type: 'custom_field',
          source_builtin_field: '',
          source_custom_field: 'f0e1d2c3-0000-4000-8000-000000000001',
        },
      ],
    };
    const xml = renderUbl(einvoiceDocument(view, mapped));
    expect(bisViolations(xml)).toEqual([]);
    const root = parseUbl(xml);
    expect(ublText(root, 'cbc:BuyerReference')).toBe('Ada');
    expect(ublText(root, 'cac:ProjectReference/cbc:ID')).toBe('C-1');
    expect(ublText(root, 'cac:ContractDocumentReference/cbc:ID')).toBe('K-77');
    expect(ublText(root, 'cac:OrderReference/cbc:ID')).toBe('PO-9');
    expect(ublText(root, 'cbc:Note')).toBe('Seats for Q1');
    expect(ublText(root, 'cac:AccountingCustomerParty/cac:Party/cac:Contact/cbc:Name')).toBe('Bo');
  });

  it('the checker catches what a receiver rejects: totals off by a cent, an unknown scheme or unit', () => {
    const xml = ubl(invoice({}));
    expect(
      bisViolations(
        xml.replace('<cbc:PayableAmount currencyID="DKK">375.00', '<cbc:PayableAmount currencyID="DKK">375.01'),
      ),
    ).toEqual(['BR-CO-16: PayableAmount']);
    expect(bisViolations(xml.replace('schemeID="0088"', 'schemeID="GLN"'))).toEqual([
      'PEPPOL-EN16931-CL008: buyer schemeID',
    ]);
    expect(bisViolations(xml.replace('unitCode="C62"', 'unitCode="PCS"'))).toEqual(['BR-23: line 1 unit code']);
    expect(bisViolations(xml.replace('5790000435975', '5790000435974'))).toEqual([
      'PEPPOL-COMMON-R040: buyer GLN check digit',
    ]);
  });
});
