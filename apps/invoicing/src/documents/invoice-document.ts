import type { BankAccountSnapshot } from '../domain/bank-account.js';
import type { InvoiceLineView, InvoiceView, PartySnapshot } from '../domain/invoice-view.js';
import { formatNumber, unitPrice } from '../domain/language/number-format.js';
import { documentLanguage, type Language, text } from '../domain/language/texts.js';
import { vatNote } from '../domain/language/vat-note.js';

/**
 * What an invoice PDF says, decided apart from where it is drawn (invoice-pdf.ts): every text
 * resolved in the document's language. Amounts, quantities and rates are the message's decimals
 * written the language's way (da 1.234,56; en 1,234.56), digit for digit, never re-rounded through
 * JS numbers; unit prices show at least the currency's decimals. Dates are ISO (YYYY-MM-DD).
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
  /** Subtotal, VAT, total and, on an invoice, the amount due (its balance). */
  totals: ReadonlyArray<{ label: string; value: string; strong: boolean }>;
  /**
   * How to pay an invoice: the bank account it names, the payment reference (its number) and the
   * due date; null on a credit note.
   */
  payment: { title: string; rows: ReadonlyArray<readonly [string, string]> } | null;
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

export function invoiceDocument(invoice: InvoiceView): InvoiceDocument {
  const language = documentLanguage(invoice.language);
  const credit = invoice.is_credit_note;
  const title = text(language, credit ? 'creditNoteTitle' : 'invoiceTitle');
  const number = invoice.invoice_number;
  const meta: Array<readonly [string, string]> = [];
  if (number !== null) meta.push([text(language, credit ? 'creditNoteNumber' : 'invoiceNumber'), number]);
  meta.push([text(language, credit ? 'creditNoteDate' : 'invoiceDate'), invoice.date]);
  if (invoice.due_date !== '') meta.push([text(language, 'dueDate'), invoice.due_date]);
  if (invoice.po_number !== '') meta.push([text(language, 'poNumber'), invoice.po_number]);

  const currency = invoice.currency;
  const localNumber = (value: string) => formatNumber(value, language);
  const withCurrency = (amount: string) => `${localNumber(amount)} ${currency}`;
  const totals = [
    { label: text(language, 'subtotal'), value: withCurrency(invoice.subtotal), strong: false },
    { label: text(language, 'vat'), value: withCurrency(invoice.vat), strong: false },
    { label: text(language, 'total'), value: withCurrency(invoice.total), strong: !credit },
  ];
  if (!credit) totals.push({ label: text(language, 'amountDue'), value: withCurrency(invoice.balance), strong: true });
  return {
    language,
    title,
    heading: number === null ? title : `${title} ${number}`,
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
    lines: invoice.lines.map((line) => documentLine(language, currency, line, invoice.account)),
    vatBreakdown: {
      title: text(language, 'vatBreakdown'),
      columns: [text(language, 'vatRate'), text(language, 'vatBase'), text(language, 'vatAmount')],
      rows: invoice.vat_breakdown.map(
        (row) => [`${localNumber(row.rate)}%`, withCurrency(row.base), withCurrency(row.vat)] as const,
      ),
    },
    totals,
    payment: credit ? null : paymentDetails(language, invoice),
    notes: notes(language, invoice),
    createdAt: creationDate(invoice),
    author: invoice.seller.name,
  };
}

/** The invoice's own time (an upcoming invoice has no created_date: its date), never "now". */
function creationDate(invoice: InvoiceView): Date {
  const at = invoice.created_date ?? new Date(`${invoice.date}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? new Date(0) : at;
}

function partyBlock(language: Language, label: string, party: PartySnapshot, withEmail: boolean): PartyBlock {
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

/** The bank account, the payment reference (the invoice number) and the due date. */
function paymentDetails(language: Language, invoice: InvoiceView): InvoiceDocument['payment'] {
  const rows: Array<readonly [string, string]> = [...bankAccountRows(language, invoice.bank_account)];
  if (invoice.invoice_number !== null) rows.push([text(language, 'paymentReference'), invoice.invoice_number]);
  if (invoice.due_date !== '') rows.push([text(language, 'dueDate'), invoice.due_date]);
  return { title: text(language, 'paymentDetails'), rows };
}

function bankAccountRows(language: Language, account: BankAccountSnapshot | null): Array<readonly [string, string]> {
  if (account === null) return [];
  if (account.iban !== '') {
    return [
      // Printed in groups of four, as IBANs are written (ISO 13616).
      [text(language, 'iban'), account.iban.replace(/(.{4})(?=.)/g, '$1 ')],
      [text(language, 'bic'), account.bic],
    ];
  }
  return [
    [text(language, 'regNumber'), account.reg_number],
    [text(language, 'accountNumber'), account.account_number],
  ];
}

function documentLine(
  language: Language,
  currency: string,
  line: InvoiceLineView,
  invoiceAccount: string,
): DocumentLine {
  const details: string[] = [];
  // A reseller's invoice (gaps.md §3): each line says which resold account it is for.
  if (line.account !== invoiceAccount) details.push(text(language, 'resoldAccount', { account: line.account_code }));
  if (line.date_from !== null && line.date_to !== null) {
    details.push(text(language, 'period', { from: line.date_from, to: line.date_to }));
  } else if (line.date_from !== null) {
    details.push(line.date_from);
  }
  // The spec adds the supplement to the description; it is printed once whether or not the
  // description already carries it.
  const supplement = line.invoice_supplement?.trim() ?? '';
  if (supplement !== '' && !line.description.includes(supplement)) details.push(supplement);
  return {
    description: line.description,
    details,
    quantity: formatNumber(line.quantity, language),
    unitPrice: formatNumber(unitPrice(line.price, currency), language),
    vatRate: line.vat_rate === '' ? '' : `${formatNumber(line.vat_rate, language)}%`,
    amount: formatNumber(line.subtotal, language),
  };
}

function notes(language: Language, invoice: InvoiceView): string[] {
  const note = vatNote(language, invoice);
  return [...(note === null ? [] : [note]), paymentTerms(language, invoice.payment_terms)];
}

export function paymentTerms(language: Language, days: number): string {
  if (days === 0) return text(language, 'paymentTermsOnReceipt');
  if (days === 1) return text(language, 'paymentTermsOneDay');
  return text(language, 'paymentTermsDays', { days });
}
