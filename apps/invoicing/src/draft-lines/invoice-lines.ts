import { type CurrencyCode, formatAmount, formatExact } from '@billing/money';
import type { DraftInvoiceLineRow } from '../db/entities/draft-invoice-line.entity.js';
import type { InvoiceLineInput } from '../use-cases/issue-invoices.js';
import { draftLineAmounts } from './amounts.js';

/** A draft line as an invoice line: price after its discount, subtotal rounded once. */
export function draftInvoiceLine(row: DraftInvoiceLineRow): InvoiceLineInput {
  const currency = row.currency as CurrencyCode;
  const amounts = draftLineAmounts({
    price: row.price,
    quantity: row.quantity,
    discount_percentage: row.discount_percentage ?? null,
    discount_fixed_per_quantity: row.discount_fixed_per_quantity ?? null,
    discount_fixed_total: row.discount_fixed_total ?? null,
    currency,
  });
  return {
    description: row.description,
    sku: '',
    vat_type: row.vat_type,
    collect_vat: row.collect_vat,
    date_from: row.date_from ?? null,
    date_to: row.date_to ?? null,
    price: formatExact(amounts.unit_price_after_discount),
    quantity: row.quantity,
    subtotal: formatAmount(amounts.subtotal, currency),
    draft_invoice_line_id: row.id,
    pricing: {
      kind: 'draft_line',
      price: row.price,
      discount_percentage: row.discount_percentage ?? null,
      discount_fixed_per_quantity: row.discount_fixed_per_quantity ?? null,
      discount_fixed_total: row.discount_fixed_total ?? null,
      discount: formatAmount(amounts.discount, currency),
    },
    reference_person: row.reference_person,
    account_reference_person: row.account_reference_person,
    po_number: row.po_number,
    case_number: row.case_number,
    invoice_supplement: row.invoice_supplement ?? null,
    custom_fields: row.custom_fields,
  };
}
