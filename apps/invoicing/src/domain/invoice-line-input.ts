import type { LineSource } from './compose-invoice.js';

/** A line to put on an invoice with the references invoice lines keep. */
export interface InvoiceLineInput extends LineSource {
  subscription?: string | null;
  terms?: string | null;
  product_id?: string | null;
  charge_id?: string | null;
  draft_invoice_line_id?: string | null;
  refund_of?: number | null;
  pricing?: Record<string, unknown>;
  reference_person?: string;
  account_reference_person?: string;
  po_number?: string;
  case_number?: string;
  invoice_supplement?: string | null;
  custom_fields?: Record<string, unknown>;
  /** The account the line is for, when not the invoice's: the resold account on a reseller's invoice. */
  account?: { id: string; code: string };
}
