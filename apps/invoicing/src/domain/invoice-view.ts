import type { BankAccountSnapshot } from './bank-account.js';
import type { InvoiceReminderView } from './reminders/reminder-view.js';

/** A party of an invoice as it was when the invoice was issued. */
export interface PartySnapshot {
  name: string;
  address: string;
  zipcode: string;
  city: string;
  country: string;
  vat_number: string;
  email: string;
}

/** One VAT rate's part of an invoice: base (sum of line subtotals), VAT rounded once per rate. */
export interface VatPart {
  rate: string;
  base: string;
  vat: string;
}

/**
 * A line of an invoice as the service presents it (api-spec "Invoice line"): amounts as text with
 * the currency's decimals, price and quantity exact.
 */
export interface InvoiceLineView {
  /** The line's number as text; '0' on an upcoming invoice, which is not stored. */
  id: string;
  /** The invoice's uuid; '' on an upcoming invoice. */
  invoice: string;
  account: string;
  account_code: string;
  description: string;
  sku: string;
  vat_type: string;
  collect_vat: boolean;
  /** YYYY-MM-DD, or null. */
  date_from: string | null;
  date_to: string | null;
  /** Exact unit price after discounts. */
  price: string;
  quantity: string;
  subtotal: string;
  vat: string;
  total: string;
  currency: string;
  imported_line: boolean;
  /** The id of the line a credit note's line reverses. */
  refund_of: string | null;
  subscription: string | null;
  terms: string | null;
  sort_weight: number;
  /** The draft line it was made from. */
  draft_invoice_line_pk: string | null;
  product_id: string | null;
  reference_person: string;
  account_reference_person: string;
  po_number: string;
  case_number: string;
  invoice_supplement: string | null;
  custom_fields: Record<string, unknown>;
  /** Percent applied to this line. */
  vat_rate: string;
  /** What was applied and why: price source, list unit price, tiers, days; or the draft line's discount. */
  pricing: Record<string, unknown>;
}

/**
 * An invoice or credit note as the service presents it: the replies of its API, the state in the
 * invoice events, and what its PDF and e-mail show. An upcoming invoice (computed, never stored)
 * has no uuid (''), number, creation time or version (0).
 */
export interface InvoiceView {
  uuid: string;
  /** The number as text; null until issued (an upcoming invoice). */
  invoice_number: string | null;
  external_invoice_number: string;
  account: string;
  account_code: string;
  /** The id of `bank_account`. */
  pay_to_bank_account: number | null;
  /** YYYY-MM-DD, the organization's local day. */
  date: string;
  due_date: string;
  currency: string;
  /** open, paid, credited; upcoming for a computed one. */
  status: string;
  kickback_status: string | null;
  collection_method: string;
  total: string;
  subtotal: string;
  vat: string;
  balance: string;
  imported: boolean;
  import_source: string;
  /** In sort order; none on a list's invoices. */
  lines: InvoiceLineView[];
  created_date: Date | null;
  last_modified_date: Date | null;
  is_credit_note: boolean;
  /** The invoice a credit note credits. */
  credit_note_for: string | null;
  payment_terms: number;
  vat_breakdown: VatPart[];
  reverse_charge: boolean;
  /** Why the VAT is what it is (e.g. the reverse-charge sentence), for the documents. */
  vat_note: string;
  seller: PartySnapshot;
  buyer: PartySnapshot;
  /** The account's language (ISO 639-1) the documents are written in. */
  language: string;
  po_number: string;
  /** The seller's bank account the invoice is paid to, as it was when the invoice was made. */
  bank_account: BankAccountSnapshot | null;
  /** 0 while pending, 1 when issued, +1 for every later change published. */
  version: number;
  /** pending, delivered, failed for an e-invoice (docs/invoicing.md "E-invoices"); null otherwise. */
  einvoice_status: string | null;
  /** The payment reminders sent, oldest first; only on a single invoice's reads (absent: none loaded). */
  reminders?: InvoiceReminderView[];
}
