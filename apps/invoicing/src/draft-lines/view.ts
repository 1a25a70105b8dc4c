import { MoneyDecimal } from '@billing/money';
import type { DraftInvoiceLineRow } from '../db/entities/draft-invoice-line.entity.js';
import type { DraftLineFields } from './fields.js';

/** A draft line as the API shows it (api-spec "Draft invoice line"). */
export interface DraftLineView {
  uuid: string;
  account: string;
  description: string;
  vat_type: string;
  collect_vat: boolean;
  date_from: string | null;
  date_to: string | null;
  price: string;
  quantity: string;
  discount_percentage: string | null;
  discount_fixed_per_quantity: string | null;
  discount_fixed_total: string | null;
  currency: string;
  include_in_next_renewal_invoice: boolean;
  revenue_group: string | null;
  created_date: Date;
  last_modified_date: Date;
  reference_person: string;
  account_reference_person: string;
  po_number: string;
  case_number: string;
  invoice_supplement: string | null;
  custom_fields: Record<string, unknown>;
  /** Orders the line's states for read models (see the entity). */
  version: number;
}

/**
 * A stored decimal as the API shows it: the exact value with at least two decimal places, trailing
 * zeros beyond the second dropped ("2" → "2.00", "9.995000" → "9.995"), as plan terms prices are.
 */
export function presentDecimal(stored: string): string {
  const value = new MoneyDecimal(stored);
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

const presentOptional = (stored: string | null | undefined): string | null =>
  stored === null || stored === undefined ? null : presentDecimal(stored);

/** The validated text as the exact decimal for its numeric column ("10.50" → "10.5"). */
export function storedDecimal(value: string): string {
  return new MoneyDecimal(value).toFixed();
}

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
