import type { BankAccountSnapshot } from '../../src/domain/bank-account.js';
import type { InvoiceLineView, InvoiceView, PartySnapshot } from '../../src/domain/invoice-view.js';

/** What a test gives of an invoice; the rest is empty (as an unset field of the message was). */
export type InvoiceViewInput = Partial<Omit<InvoiceView, 'lines' | 'seller' | 'buyer' | 'bank_account'>> & {
  lines?: Partial<InvoiceLineView>[];
  seller?: Partial<PartySnapshot>;
  buyer?: Partial<PartySnapshot>;
  /** Without a currency: one for every currency. */
  bank_account?: (Omit<BankAccountSnapshot, 'currency'> & { currency?: string | null }) | null | undefined;
};

const EMPTY_PARTY: PartySnapshot = {
  name: '',
  address: '',
  zipcode: '',
  city: '',
  country: '',
  vat_number: '',
  email: '',
};

const EMPTY_LINE: InvoiceLineView = {
  id: '0',
  invoice: '',
  account: '',
  account_code: '',
  description: '',
  sku: '',
  vat_type: '',
  collect_vat: false,
  date_from: null,
  date_to: null,
  price: '',
  quantity: '',
  subtotal: '',
  vat: '',
  total: '',
  currency: '',
  imported_line: false,
  refund_of: null,
  subscription: null,
  terms: null,
  sort_weight: 0,
  draft_invoice_line_pk: null,
  product_id: null,
  reference_person: '',
  account_reference_person: '',
  po_number: '',
  case_number: '',
  invoice_supplement: null,
  custom_fields: {},
  vat_rate: '',
  pricing: {},
};

const EMPTY_INVOICE: InvoiceView = {
  einvoice_status: null,
  uuid: '',
  invoice_number: null,
  external_invoice_number: '',
  account: '',
  account_code: '',
  pay_to_bank_account: null,
  date: '',
  due_date: '',
  currency: '',
  status: '',
  kickback_status: null,
  collection_method: '',
  total: '',
  subtotal: '',
  vat: '',
  balance: '',
  imported: false,
  import_source: '',
  lines: [],
  created_date: null,
  last_modified_date: null,
  is_credit_note: false,
  credit_note_for: null,
  payment_terms: 0,
  vat_breakdown: [],
  reverse_charge: false,
  vat_note: '',
  seller: EMPTY_PARTY,
  buyer: EMPTY_PARTY,
  language: '',
  po_number: '',
  bank_account: null,
  version: 0,
};

/** An invoice as the documents and the mail take it, for their tests. */
export function invoiceViewOf(input: InvoiceViewInput): InvoiceView {
  const { lines, seller, buyer, bank_account, ...fields } = input;
  return {
    ...EMPTY_INVOICE,
    ...fields,
    lines: (lines ?? []).map((line) => ({ ...EMPTY_LINE, ...line })),
    seller: { ...EMPTY_PARTY, ...seller },
    buyer: { ...EMPTY_PARTY, ...buyer },
    bank_account: bank_account ? { currency: null, ...bank_account } : null,
  };
}
