import { type CurrencyCode, formatAmount, money, sum } from '@billing/money';
import { VAT_REASON_TEXT, vatAmount } from '@billing/tax';
import type { BankAccountSnapshot } from '../bank-account.js';
import type { InvoiceLineView, InvoiceView, PartySnapshot } from '../invoice-view.js';
import { documentLanguage, text } from '../language/texts.js';
import { vatNote } from '../language/vat-note.js';
import type { EinvoiceSnapshot } from './einvoice-snapshot.js';
import type { Endpoint } from './endpoint.js';
import { type MappedFields, mappedFields } from './field-mappings.js';
import { EXEMPTION_CODES, type TaxCategory, taxCategory } from './tax-category.js';

export const BIS_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const BIS_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
/** UN/ECE Recommendation 20 "one" (C62): a subscription, a seat, a unit. */
export const UNIT_CODE = 'C62';

export interface EParty {
  endpoint: Endpoint;
  name: string;
  street: string;
  city: string;
  zipcode: string;
  country: string;
  /** With its country prefix (BR-CO-09); null when the party has none or must not show it (O). */
  vat_id: string | null;
  /** The Danish CVR number under 0184 as the legal registration (BT-30/BT-47), else null. */
  company_id: Endpoint | null;
  contact_name: string;
  email: string;
}

export interface ETaxSubtotal {
  category: TaxCategory;
  /** Percent with two decimals; null for O (BR-O-05). */
  percent: string | null;
  taxable: string;
  tax: string;
  exemption_code: string | null;
  exemption_reason: string | null;
}

export interface ELine {
  id: string;
  quantity: string;
  unit_code: string;
  amount: string;
  period: { start: string; end: string } | null;
  name: string;
  sku: string;
  category: TaxCategory;
  percent: string | null;
  price: string;
}

/** A Peppol BIS Billing 3.0 invoice or credit note, every value decided (documents/ubl.ts writes it). */
export interface EinvoiceDocument {
  kind: 'Invoice' | 'CreditNote';
  /** UNCL 1001: 380 commercial invoice, 381 credit note. */
  type_code: '380' | '381';
  id: string;
  issue_date: string;
  due_date: string | null;
  note: string | null;
  currency: string;
  accounting_cost: string | null;
  buyer_reference: string;
  period: { start: string; end: string } | null;
  order_reference: string | null;
  contract_reference: string | null;
  project_reference: string | null;
  /** The number of the invoice a credit note credits (BG-3). */
  billing_reference: string | null;
  seller: EParty;
  buyer: EParty;
  /** Deliver-to country: required with intra-community supply (BR-IC-12). */
  delivery_country: string | null;
  payment: { means_code: string; payment_id: string; account: string; bic: string | null } | null;
  payment_terms: string;
  tax_total: string;
  subtotals: ETaxSubtotal[];
  totals: { line_extension: string; tax_exclusive: string; tax_inclusive: string; payable: string };
  lines: ELine[];
}

/**
 * The e-invoice of an issued invoice: amounts, VAT breakdown and notes as the invoice and its PDF
 * have them (VAT per category and rate on the sum of the lines, rounded once, as composeInvoice
 * does). A credit note's amounts are stored negative; the CreditNote document states them positive
 * (its type says they are credited), so its lines change sign too.
 */
export function einvoiceDocument(
  invoice: InvoiceView,
  einvoice: EinvoiceSnapshot,
  options: { creditedInvoiceNumber?: string | null } = {},
): EinvoiceDocument {
  if (invoice.invoice_number === null) throw new RangeError('Only an issued invoice has an e-invoice.');
  const currency = invoice.currency as CurrencyCode;
  const language = documentLanguage(invoice.language);
  const credit = invoice.is_credit_note;
  const sign = credit ? -1 : 1;
  const amount = (value: string) => formatAmount(money(value).times(sign), currency);
  const facts = {
    seller_country: invoice.seller.country,
    buyer_country: invoice.buyer.country,
    buyer_vat_number: invoice.buyer.vat_number || null,
  };
  const decided = invoice.lines.map((line) => ({
    line,
    ...taxCategory({ ...facts, collect_vat: line.collect_vat }, line.vat_type),
  }));
  // BR-O-11..14: outside the scope of VAT (O) is a whole document's category. Next to lines that
  // are taxed, a line without VAT is stated exempt (E), with the same note.
  const mixed = decided.some((entry) => entry.category === 'O') && decided.some((entry) => entry.category !== 'O');
  const categorised = decided.map((entry) =>
    mixed && entry.category === 'O' ? { ...entry, category: 'E' as TaxCategory } : entry,
  );
  const hasO = categorised.some((entry) => entry.category === 'O');

  const groups = new Map<string, { category: TaxCategory; rate: string; reason: string; subtotals: string[] }>();
  for (const entry of categorised) {
    const key = `${entry.category}|${entry.line.vat_rate}`;
    const group = groups.get(key) ?? {
      category: entry.category,
      rate: entry.line.vat_rate,
      reason: entry.reason,
      subtotals: [],
    };
    group.subtotals.push(entry.line.subtotal);
    groups.set(key, group);
  }
  const subtotals: ETaxSubtotal[] = [...groups.values()].map((group) => {
    const base = sum(group.subtotals.map((value) => money(value)));
    const exemption = EXEMPTION_CODES[group.category] ?? null;
    return {
      category: group.category,
      percent: group.category === 'O' ? null : percent(group.rate),
      taxable: formatAmount(base.times(sign), currency),
      tax: formatAmount(vatAmount(base, group.rate, currency).times(sign), currency),
      exemption_code: exemption,
      exemption_reason:
        exemption === null && group.category !== 'E'
          ? null
          : vatNote(language, {
              vat_note: VAT_REASON_TEXT[group.reason as keyof typeof VAT_REASON_TEXT],
              reverse_charge: group.category === 'AE' || group.category === 'K',
            }),
    };
  });

  const fields = mappedFields(invoice, einvoice.field_mappings);
  const orderReference = fields.order_reference || null;
  const hasK = categorised.some((entry) => entry.category === 'K');
  const period = invoicePeriod(invoice.lines);
  const lineExtension = amount(invoice.subtotal);
  return {
    kind: credit ? 'CreditNote' : 'Invoice',
    type_code: credit ? '381' : '380',
    id: invoice.invoice_number,
    issue_date: invoice.date,
    due_date: credit || invoice.due_date === '' ? null : invoice.due_date,
    note: fields.invoice_note || null,
    currency: invoice.currency,
    accounting_cost: fields.accounting_cost || null,
    // PEPPOL-EN16931-R003: a buyer reference or an order reference; without either, the account's
    // code (the buyer's customer number with the seller) is the reference.
    buyer_reference: fields.buyer_reference || (orderReference === null ? invoice.account_code : ''),
    period,
    order_reference: orderReference,
    contract_reference: fields.contract_reference || null,
    project_reference: fields.project_reference || null,
    billing_reference: credit ? (options.creditedInvoiceNumber ?? null) : null,
    seller: party(invoice.seller, einvoice.seller_endpoint, hasO, invoice.seller.email, ''),
    buyer: party(invoice.buyer, einvoice.buyer_endpoint, hasO, invoice.buyer.email, fields.buyer_contact_name ?? ''),
    delivery_country: hasK ? invoice.buyer.country : null,
    payment: credit ? null : paymentMeans(invoice.bank_account, invoice.invoice_number),
    payment_terms: paymentTermsText(language, invoice.payment_terms),
    tax_total: amount(invoice.vat),
    subtotals,
    totals: {
      line_extension: lineExtension,
      tax_exclusive: lineExtension,
      tax_inclusive: amount(invoice.total),
      payable: amount(invoice.total),
    },
    lines: categorised.map(({ line, category }) => eLine(line, category, sign, currency)),
  };
}

function percent(rate: string): string {
  return money(rate).toFixed(2);
}

function eLine(line: InvoiceLineView, category: TaxCategory, sign: number, currency: CurrencyCode): ELine {
  // BR-27: the price is never negative; a credit line is a negative quantity at its price. The
  // amount's sign decides (a credited line may keep the quantity and price of the line it reverses).
  const price = money(line.price);
  const amount = money(line.subtotal).times(sign);
  const quantity = money(line.quantity)
    .abs()
    .times(amount.isNegative() ? -1 : 1);
  return {
    id: line.id,
    quantity: quantity.toString(),
    unit_code: UNIT_CODE,
    amount: formatAmount(amount, currency),
    period: line.date_from !== null && line.date_to !== null ? { start: line.date_from, end: line.date_to } : null,
    name: line.description,
    sku: line.sku,
    category,
    percent: category === 'O' ? null : percent(line.vat_rate),
    price: price.abs().toString(),
  };
}

/** The span of the lines' periods (BG-14), when every line has one. */
function invoicePeriod(lines: readonly InvoiceLineView[]): { start: string; end: string } | null {
  if (lines.length === 0 || lines.some((line) => line.date_from === null || line.date_to === null)) return null;
  const starts = lines.map((line) => line.date_from!).sort();
  const ends = lines.map((line) => line.date_to!).sort();
  return { start: starts[0]!, end: ends[ends.length - 1]! };
}

function party(
  snapshot: PartySnapshot,
  endpoint: Endpoint,
  hideVat: boolean,
  email: string,
  contactName: string,
): EParty {
  const country = snapshot.country.toUpperCase();
  const vat = snapshot.vat_number.replace(/\s+/g, '').toUpperCase();
  // BR-CO-09: the VAT identifier starts with its country's prefix (Greece: EL).
  const prefix = country === 'GR' ? 'EL' : country;
  const vatId = vat === '' ? null : /^[A-Z]{2}/.test(vat) ? vat : `${prefix}${vat}`;
  return {
    endpoint,
    name: snapshot.name,
    street: snapshot.address.split('\n').join(', '),
    city: snapshot.city,
    zipcode: snapshot.zipcode,
    country,
    // BR-O-02/03: an invoice with lines outside the scope of VAT names no VAT identifiers.
    vat_id: hideVat ? null : vatId,
    company_id: endpoint.scheme === '0184' ? endpoint : null,
    contact_name: contactName,
    email,
  };
}

function paymentMeans(account: BankAccountSnapshot | null, reference: string): EinvoiceDocument['payment'] {
  if (account === null) return null;
  // UNCL 4461: 58 SEPA credit transfer (an IBAN), 30 credit transfer (a domestic account).
  if (account.iban !== '')
    return { means_code: '58', payment_id: reference, account: account.iban, bic: account.bic || null };
  return {
    means_code: '30',
    payment_id: reference,
    account: `${account.reg_number}${account.account_number}`,
    bic: null,
  };
}

function paymentTermsText(language: ReturnType<typeof documentLanguage>, days: number): string {
  if (days === 0) return text(language, 'paymentTermsOnReceipt');
  if (days === 1) return text(language, 'paymentTermsOneDay');
  return text(language, 'paymentTermsDays', { days });
}

export type { MappedFields };
