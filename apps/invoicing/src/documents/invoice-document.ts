import type { invoicingV1 } from '@billing/proto';
import { documentLanguage, type Language, text } from './texts.js';
import { vatNote } from './vat-note.js';

/**
 * What an invoice PDF says, decided apart from where it is drawn (invoice-pdf.ts): every text
 * resolved in the document's language. Amounts, quantities, rates and dates are the message's
 * strings as they are, never re-rounded through JS numbers.
 */
export interface InvoiceDocument {
  language: Language;
  /** "Faktura", "Credit note". */
  title: string;
  /** "Faktura 12": the PDF's Title and the heading of continuation pages. */
  heading: string;
  /** Number, dates, PO number: label and value. */
  meta: ReadonlyArray<readonly [string, string]>;
  seller: PartyBlock;
  buyer: PartyBlock;
  columns: LineCells;
  lines: ReadonlyArray<DocumentLine>;
  vatBreakdown: {
    title: string;
    columns: readonly [string, string, string];
    rows: ReadonlyArray<readonly [string, string, string]>;
  };
  totals: ReadonlyArray<{ label: string; value: string; strong: boolean }>;
  /** The VAT note (reverse charge) and the payment terms, one paragraph each. */
  notes: ReadonlyArray<string>;
  /** Creation date of the PDF: the invoice's, so the same invoice renders the same bytes. */
  createdAt: Date;
  author: string;
}

export interface PartyBlock {
  label: string;
  /** The first is the name. */
  lines: ReadonlyArray<string>;
}

export interface LineCells {
  description: string;
  quantity: string;
  unitPrice: string;
  vatRate: string;
  amount: string;
}

export interface DocumentLine extends LineCells {
  /** Period and invoice supplement, printed under the description. */
  details: ReadonlyArray<string>;
}

export function invoiceDocument(invoice: invoicingV1.Invoice): InvoiceDocument {
  const language = documentLanguage(invoice.language);
  const credit = invoice.is_credit_note;
  const title = text(language, credit ? 'creditNoteTitle' : 'invoiceTitle');
  const number = invoice.invoice_number;
  const meta: Array<readonly [string, string]> = [];
  if (number !== undefined) meta.push([text(language, credit ? 'creditNoteNumber' : 'invoiceNumber'), number]);
  meta.push([text(language, credit ? 'creditNoteDate' : 'invoiceDate'), invoice.date]);
  if (invoice.due_date !== '') meta.push([text(language, 'dueDate'), invoice.due_date]);
  if (invoice.po_number !== '') meta.push([text(language, 'poNumber'), invoice.po_number]);

  const currency = invoice.currency;
  const withCurrency = (amount: string) => `${amount} ${currency}`;
  return {
    language,
    title,
    heading: number === undefined ? title : `${title} ${number}`,
    meta,
    seller: partyBlock(language, text(language, 'from'), invoice.seller, true),
    buyer: partyBlock(language, text(language, 'to'), invoice.buyer, false),
    columns: {
      description: text(language, 'description'),
      quantity: text(language, 'quantity'),
      unitPrice: text(language, 'unitPrice'),
      vatRate: text(language, 'lineVatRate'),
      amount: `${text(language, 'amount')} ${currency}`,
    },
    lines: invoice.lines.map((line) => documentLine(language, line)),
    vatBreakdown: {
      title: text(language, 'vatBreakdown'),
      columns: [text(language, 'vatRate'), text(language, 'vatBase'), text(language, 'vatAmount')],
      rows: invoice.vat_breakdown.map(
        (row) => [`${row.rate}%`, withCurrency(row.base), withCurrency(row.vat)] as const,
      ),
    },
    totals: [
      { label: text(language, 'subtotal'), value: withCurrency(invoice.subtotal), strong: false },
      { label: text(language, 'vat'), value: withCurrency(invoice.vat), strong: false },
      { label: text(language, 'total'), value: withCurrency(invoice.total), strong: true },
    ],
    notes: notes(language, invoice),
    createdAt: creationDate(invoice),
    author: invoice.seller?.name ?? '',
  };
}

/** The invoice's own time (an upcoming invoice has no created_date: its date), never "now". */
function creationDate(invoice: invoicingV1.Invoice): Date {
  const at = invoice.created_date ?? new Date(`${invoice.date}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? new Date(0) : at;
}

function partyBlock(
  language: Language,
  label: string,
  party: invoicingV1.Party | undefined,
  withEmail: boolean,
): PartyBlock {
  if (party === undefined) return { label, lines: [] };
  const lines = [
    party.name,
    ...party.address.split('\n'),
    `${party.zipcode} ${party.city}`,
    countryName(language, party.country),
  ];
  if (party.vat_number !== '') lines.push(text(language, 'vatNumber', { vatNumber: party.vat_number }));
  if (withEmail) lines.push(party.email);
  return { label, lines: lines.map((line) => line.trim()).filter((line) => line !== '') };
}

/** "DE" as "Germany" / "Tyskland"; anything that is not a region code is printed as it is. */
function countryName(language: Language, country: string): string {
  if (!/^[A-Za-z]{2}$/.test(country)) return country;
  return new Intl.DisplayNames([language], { type: 'region', fallback: 'code' }).of(country.toUpperCase()) ?? country;
}

function documentLine(language: Language, line: invoicingV1.InvoiceLine): DocumentLine {
  const details: string[] = [];
  if (line.date_from !== undefined && line.date_to !== undefined) {
    details.push(text(language, 'period', { from: line.date_from, to: line.date_to }));
  } else if (line.date_from !== undefined) {
    details.push(line.date_from);
  }
  // The spec adds the supplement to the description; it is printed once whether or not the
  // description already carries it.
  const supplement = line.invoice_supplement?.trim() ?? '';
  if (supplement !== '' && !line.description.includes(supplement)) details.push(supplement);
  return {
    description: line.description,
    details,
    quantity: line.quantity,
    unitPrice: line.price,
    vatRate: line.vat_rate === '' ? '' : `${line.vat_rate}%`,
    amount: line.subtotal,
  };
}

function notes(language: Language, invoice: invoicingV1.Invoice): string[] {
  const note = vatNote(language, invoice);
  return [...(note === null ? [] : [note]), paymentTerms(language, invoice.payment_terms)];
}

export function paymentTerms(language: Language, days: number): string {
  if (days === 0) return text(language, 'paymentTermsOnReceipt');
  if (days === 1) return text(language, 'paymentTermsOneDay');
  return text(language, 'paymentTermsDays', { days });
}
