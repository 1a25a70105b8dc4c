import { type CurrencyCode, formatAmount, formatExact } from '@billing/money';
import type { InvoiceLineInput } from '../invoice-line-input.js';
import { draftLineAmounts } from './amounts.js';
import type { DraftLineFields } from './fields.js';

/**
 * The draft line `uuid` with its stored fields as an invoice line: price after its discount,
 * subtotal rounded once; what it was (price and discount) kept in `pricing`.
 */
export function draftInvoiceLine(uuid: string, line: DraftLineFields): InvoiceLineInput {
  const currency = line.currency as CurrencyCode;
  const amounts = draftLineAmounts({
    price: line.price,
    quantity: line.quantity,
    discount_percentage: line.discount_percentage,
    discount_fixed_per_quantity: line.discount_fixed_per_quantity,
    discount_fixed_total: line.discount_fixed_total,
    currency,
  });
  return {
    description: line.description,
    sku: '',
    vat_type: line.vat_type,
    collect_vat: line.collect_vat,
    date_from: line.date_from,
    date_to: line.date_to,
    price: formatExact(amounts.unit_price_after_discount),
    quantity: line.quantity,
    subtotal: formatAmount(amounts.subtotal, currency),
    draft_invoice_line_id: uuid,
    pricing: {
      kind: 'draft_line',
      price: line.price,
      discount_percentage: line.discount_percentage,
      discount_fixed_per_quantity: line.discount_fixed_per_quantity,
      discount_fixed_total: line.discount_fixed_total,
      discount: formatAmount(amounts.discount, currency),
    },
    reference_person: line.reference_person,
    account_reference_person: line.account_reference_person,
    po_number: line.po_number,
    case_number: line.case_number,
    invoice_supplement: line.invoice_supplement,
    custom_fields: line.custom_fields,
  };
}
