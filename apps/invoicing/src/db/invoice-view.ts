import type { EntityManager } from '@mikro-orm/postgresql';
import { presentAmount, presentExact } from '../domain/decimal-text.js';
import type { InvoiceLineView, InvoiceView } from '../domain/invoice-view.js';
import type { InvoiceRow } from './entities/invoice.entity.js';
import type { InvoiceLineRow } from './entities/invoice-line.entity.js';
import { linesOf } from './invoice-store.js';
import { remindersOf, remindersOfInvoices, reminderView } from './reminder-store.js';
import { lineRowsOf, reminderRowsOf } from './settle-store.js';

const decimalsOf = (currency: string): number => (currency === 'ISK' ? 0 : 2);

export function invoiceLineView(row: InvoiceLineRow): InvoiceLineView {
  const decimals = decimalsOf(row.currency);
  return {
    id: String(row.id),
    invoice: row.invoice_id,
    account: row.account_id,
    account_code: row.account_code,
    description: row.description,
    sku: row.sku,
    vat_type: row.vat_type,
    collect_vat: row.collect_vat,
    date_from: row.date_from ?? null,
    date_to: row.date_to ?? null,
    price: presentExact(row.price),
    quantity: presentExact(row.quantity),
    subtotal: presentAmount(row.subtotal, decimals),
    vat: presentAmount(row.vat, decimals),
    total: presentAmount(row.total, decimals),
    currency: row.currency,
    imported_line: false,
    refund_of: row.refund_of === null || row.refund_of === undefined ? null : String(row.refund_of),
    subscription: row.subscription_id ?? null,
    terms: row.terms_id ?? null,
    sort_weight: row.sort_weight,
    draft_invoice_line_pk: row.draft_invoice_line_id ?? null,
    product_id: row.product_id ?? null,
    reference_person: row.reference_person,
    account_reference_person: row.account_reference_person,
    po_number: row.po_number,
    case_number: row.case_number,
    invoice_supplement: row.invoice_supplement ?? null,
    custom_fields: row.custom_fields,
    vat_rate: presentAmount(row.vat_rate, 2),
    pricing: row.pricing,
  };
}

/** A stored invoice with the lines given (none for a list's invoices), as the service presents it. */
export function invoiceView(row: InvoiceRow, lines: readonly InvoiceLineRow[]): InvoiceView {
  const decimals = decimalsOf(row.currency);
  return {
    uuid: row.id,
    invoice_number: row.invoice_number === null || row.invoice_number === undefined ? null : String(row.invoice_number),
    external_invoice_number: row.external_invoice_number,
    account: row.account_id,
    account_code: row.account_code,
    pay_to_bank_account: row.bank_account?.id ?? null,
    date: row.date,
    due_date: row.due_date,
    currency: row.currency,
    status: row.status,
    kickback_status: row.kickback_status ?? null,
    collection_method: row.collection_method,
    total: presentAmount(row.total, decimals),
    subtotal: presentAmount(row.subtotal, decimals),
    vat: presentAmount(row.vat, decimals),
    balance: presentAmount(row.balance, decimals),
    imported: row.imported,
    import_source: row.import_source,
    lines: lines.map(invoiceLineView),
    created_date: row.created_at,
    last_modified_date: row.updated_at,
    is_credit_note: row.is_credit_note,
    credit_note_for: row.credit_note_for ?? null,
    payment_terms: row.payment_terms,
    vat_breakdown: row.vat_breakdown,
    reverse_charge: row.reverse_charge,
    vat_note: row.vat_note,
    seller: row.seller,
    buyer: row.buyer,
    language: row.language,
    po_number: row.po_number,
    bank_account: row.bank_account ?? null,
    version: row.version,
    einvoice_status: row.einvoice_status ?? null,
  };
}

/** A stored invoice with its lines and payment reminders, as the service presents it. */
export async function invoiceViewWithLines(em: EntityManager, row: InvoiceRow): Promise<InvoiceView> {
  // One after the other: inside a transaction both run on its one connection.
  const lines = await linesOf(em, [row.id]);
  const reminders = await remindersOf(em, row.id);
  return {
    ...invoiceView(row, lines.get(row.id) ?? []),
    reminders: reminders.map((reminder) => reminderView(reminder, row.currency)),
  };
}

/** invoiceViewWithLines for several invoices: their lines and reminders read in one query each. */
export async function invoiceViewsWithLines(em: EntityManager, rows: readonly InvoiceRow[]): Promise<InvoiceView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const lines = await linesOf(em, ids);
  const reminders = await remindersOfInvoices(em, ids);
  return rows.map((row) => ({
    ...invoiceView(row, lines.get(row.id) ?? []),
    reminders: (reminders.get(row.id) ?? []).map((reminder) => reminderView(reminder, row.currency)),
  }));
}

/**
 * invoiceViewsWithLines for invoices that are plain rows (not entities of the unit of work): their
 * lines and reminders read as plain rows too, in one query each.
 */
export async function invoiceViewsOfRows(em: EntityManager, rows: readonly InvoiceRow[]): Promise<InvoiceView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const lines = await lineRowsOf(em, ids);
  const reminders = await reminderRowsOf(em, ids);
  return rows.map((row) => ({
    ...invoiceView(row, lines.get(row.id) ?? []),
    reminders: (reminders.get(row.id) ?? []).map((reminder) => reminderView(reminder, row.currency)),
  }));
}
