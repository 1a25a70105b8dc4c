import type { commonV1, invoicingV1 } from '@billing/proto';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import type { InvoiceLineRow } from '../db/entities/invoice-line.entity.js';
import type { BankAccountSnapshot } from '../domain/bank-account.js';
import { presentAmount, presentExact } from '../domain/decimal-text.js';

const decimalsOf = (currency: string): number => (currency === 'ISK' ? 0 : 2);

export function invoiceLineMessage(row: InvoiceLineRow): invoicingV1.InvoiceLine {
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
    date_from: row.date_from ?? undefined,
    date_to: row.date_to ?? undefined,
    price: presentExact(row.price),
    quantity: presentExact(row.quantity),
    subtotal: presentAmount(row.subtotal, decimals),
    vat: presentAmount(row.vat, decimals),
    total: presentAmount(row.total, decimals),
    currency: row.currency,
    imported_line: false,
    refund_of: row.refund_of === null || row.refund_of === undefined ? undefined : String(row.refund_of),
    subscription: row.subscription_id ?? undefined,
    terms: row.terms_id ?? undefined,
    sort_weight: row.sort_weight,
    draft_invoice_line_pk: row.draft_invoice_line_id ?? undefined,
    product_id: row.product_id ?? undefined,
    revenue_group_id: undefined,
    reference_person: row.reference_person,
    account_reference_person: row.account_reference_person,
    po_number: row.po_number,
    case_number: row.case_number,
    invoice_supplement: row.invoice_supplement ?? undefined,
    custom_fields: row.custom_fields,
    vat_rate: presentAmount(row.vat_rate, 2),
    pricing: row.pricing,
  };
}

export function invoiceMessage(row: InvoiceRow, lines: readonly InvoiceLineRow[]): invoicingV1.Invoice {
  const decimals = decimalsOf(row.currency);
  return {
    uuid: row.id,
    invoice_number:
      row.invoice_number === null || row.invoice_number === undefined ? undefined : String(row.invoice_number),
    external_invoice_number: row.external_invoice_number,
    account: row.account_id,
    account_code: row.account_code,
    pay_to_bank_account: row.bank_account?.id,
    date: row.date,
    due_date: row.due_date,
    currency: row.currency,
    status: row.status,
    kickback_status: row.kickback_status ?? undefined,
    collection_method: row.collection_method,
    total: presentAmount(row.total, decimals),
    subtotal: presentAmount(row.subtotal, decimals),
    vat: presentAmount(row.vat, decimals),
    balance: presentAmount(row.balance, decimals),
    imported: row.imported,
    import_source: row.import_source,
    lines: lines.map(invoiceLineMessage),
    created_date: row.created_at,
    last_modified_date: row.updated_at,
    is_credit_note: row.is_credit_note,
    credit_note_for: row.credit_note_for ?? undefined,
    payment_terms: row.payment_terms,
    vat_breakdown: row.vat_breakdown,
    reverse_charge: row.reverse_charge,
    vat_note: row.vat_note,
    seller: row.seller,
    buyer: row.buyer,
    language: row.language,
    paid_date: undefined,
    po_number: row.po_number,
    bank_account: row.bank_account ? bankAccountMessage(row.bank_account) : undefined,
    version: row.version,
  };
}

export function bankAccountMessage(account: BankAccountSnapshot): commonV1.BankAccount {
  return {
    id: account.id,
    ...(account.currency !== null ? { currency: account.currency } : {}),
    iban: account.iban,
    bic: account.bic,
    reg_number: account.reg_number,
    account_number: account.account_number,
  };
}
