import { presentDecimal, storedDecimal } from '../domain/decimal-text.js';
import type { DraftLineView } from '../domain/draft-lines/draft-line-view.js';
import type { DraftLineFields } from '../domain/draft-lines/fields.js';
import { draftInvoiceLine } from '../domain/draft-lines/invoice-line.js';
import type { InvoiceLineInput } from '../domain/invoice-line-input.js';
import type { DraftInvoiceLineRow } from './entities/draft-invoice-line.entity.js';

const presentOptional = (stored: string | null | undefined): string | null =>
  stored === null || stored === undefined ? null : presentDecimal(stored);

const storedOptional = (value: string | null): string | null => (value === null ? null : storedDecimal(value));

export function draftLineView(row: DraftInvoiceLineRow): DraftLineView {
  return {
    uuid: row.id,
    ...currentFields(row),
    price: presentDecimal(row.price),
    quantity: presentDecimal(row.quantity),
    discount_percentage: presentOptional(row.discount_percentage),
    discount_fixed_per_quantity: presentOptional(row.discount_fixed_per_quantity),
    discount_fixed_total: presentOptional(row.discount_fixed_total),
    created_date: row.created_at,
    last_modified_date: row.updated_at,
    version: row.version,
  };
}

/** The stored line as writable fields, what a PATCH merges into. */
export function currentFields(row: DraftInvoiceLineRow): DraftLineFields {
  return {
    account: row.account_id,
    description: row.description,
    vat_type: row.vat_type,
    collect_vat: row.collect_vat,
    date_from: row.date_from ?? null,
    date_to: row.date_to ?? null,
    price: row.price,
    quantity: row.quantity,
    discount_percentage: row.discount_percentage ?? null,
    discount_fixed_per_quantity: row.discount_fixed_per_quantity ?? null,
    discount_fixed_total: row.discount_fixed_total ?? null,
    currency: row.currency,
    include_in_next_renewal_invoice: row.include_in_next_renewal_invoice,
    revenue_group: row.revenue_group ?? null,
    reference_person: row.reference_person,
    account_reference_person: row.account_reference_person,
    po_number: row.po_number,
    case_number: row.case_number,
    invoice_supplement: row.invoice_supplement ?? null,
    custom_fields: row.custom_fields,
  };
}

/** Validated fields as the row's columns. */
export function rowValues(fields: DraftLineFields) {
  return {
    account_id: fields.account,
    description: fields.description,
    vat_type: fields.vat_type,
    collect_vat: fields.collect_vat,
    date_from: fields.date_from,
    date_to: fields.date_to,
    price: storedDecimal(fields.price),
    quantity: storedDecimal(fields.quantity),
    discount_percentage: storedOptional(fields.discount_percentage),
    discount_fixed_per_quantity: storedOptional(fields.discount_fixed_per_quantity),
    discount_fixed_total: storedOptional(fields.discount_fixed_total),
    currency: fields.currency,
    include_in_next_renewal_invoice: fields.include_in_next_renewal_invoice,
    revenue_group: fields.revenue_group,
    reference_person: fields.reference_person,
    account_reference_person: fields.account_reference_person,
    po_number: fields.po_number,
    case_number: fields.case_number,
    invoice_supplement: fields.invoice_supplement,
    custom_fields: fields.custom_fields,
  };
}

/** A stored draft line as a line of the invoice that takes it. */
export function draftInvoiceLineOf(row: DraftInvoiceLineRow): InvoiceLineInput {
  return draftInvoiceLine(row.id, currentFields(row));
}
