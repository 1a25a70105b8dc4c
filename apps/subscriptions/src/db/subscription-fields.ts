import type { SubscriptionFields } from '../domain/subscription-fields.js';
import type { SubscriptionRow } from './entities/subscription.entity.js';

/** The writable fields of a stored subscription, as an update merges the sent ones into them. */
export function subscriptionFieldsOf(row: SubscriptionRow): SubscriptionFields {
  return {
    terms: row.plan_terms_id,
    start_date: row.start_date,
    quantity: row.quantity,
    collection_method: row.collection_method,
    group_on_invoice: row.group_on_invoice,
    is_auto_renew_enabled: row.is_auto_renew_enabled,
    payment_terms: row.payment_terms ?? null,
    pre_renewal_days_offset: row.pre_renewal_days_offset,
    pre_renewal_invoicing: row.pre_renewal_invoicing,
    po_number: row.po_number,
    invoice_supplement: row.invoice_supplement ?? null,
    override_price: row.override_price ?? null,
    reference_person: row.reference_person,
    account_reference_person: row.account_reference_person,
    case_number: row.case_number,
    churn_reason: row.churn_reason_id ?? null,
    custom_churn_reason: row.custom_churn_reason ?? null,
    custom_fields: row.custom_fields,
  };
}
