import type { invoicingV1 } from '@billing/proto';
import type { VatType } from '@billing/reference-data';
import { nullable, tagged } from './representation.js';

/**
 * api-spec "Draft invoice line". `account` is the account's code (what writes name it by; null
 * once the account no longer exists), `account_uuid` its uuid.
 */
export function presentDraftLine(line: invoicingV1.DraftLine, accountCode: string | null) {
  return tagged('draft_invoice_line', {
    uuid: line.uuid,
    account: accountCode,
    account_uuid: line.account,
    description: line.description,
    vat_type: line.vat_type as VatType,
    collect_vat: line.collect_vat,
    date_from: nullable(line.date_from),
    date_to: nullable(line.date_to),
    price: line.price,
    quantity: line.quantity,
    discount_percentage: nullable(line.discount_percentage),
    discount_fixed_per_quantity: nullable(line.discount_fixed_per_quantity),
    discount_fixed_total: nullable(line.discount_fixed_total),
    currency: line.currency,
    include_in_next_renewal_invoice: line.include_in_next_renewal_invoice,
    revenue_group: nullable(line.revenue_group),
    created_date: line.created_date?.toISOString() as string,
    last_modified_date: line.last_modified_date?.toISOString() as string,
    reference_person: line.reference_person,
    account_reference_person: line.account_reference_person,
    po_number: line.po_number,
    case_number: line.case_number,
    invoice_supplement: nullable(line.invoice_supplement),
    custom_fields: line.custom_fields ?? {},
  });
}

export type DraftLineRepresentation = ReturnType<typeof presentDraftLine>;
