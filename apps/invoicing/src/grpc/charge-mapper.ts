import type { chargesV1 } from '@billing/proto';
import type { ChargeLineFacts } from '../domain/charge-lines.js';
import type { ReceivedCharge } from '../domain/received-charge.js';

/**
 * An engine charge as invoicing takes it: from charge.created (events/charge-consumer.ts) and from
 * the renewal preview the gateway passes to UpcomingInvoice. Unset optional fields are null; the
 * lines' facts (tiers applied included) are kept as the message has them, for the invoice lines'
 * pricing.
 */
export function receivedCharge(charge: chargesV1.Charge): ReceivedCharge {
  return {
    uuid: charge.uuid,
    subscription: charge.subscription,
    account: charge.account,
    kind: charge.kind,
    currency: charge.currency,
    due_at: charge.due_at ?? null,
    lines: charge.lines.map(chargeLineFacts),
    group_on_invoice: charge.group_on_invoice,
    po_number: charge.po_number,
    payment_terms: charge.payment_terms ?? null,
    collection_method: charge.collection_method,
    invoice_supplement: charge.invoice_supplement ?? null,
    reference_person: charge.reference_person,
    account_reference_person: charge.account_reference_person,
    case_number: charge.case_number,
    custom_fields: charge.custom_fields ?? {},
    credit_all_invoices: charge.credit_all_invoices,
  };
}

function chargeLineFacts(line: chargesV1.ChargeLine): ChargeLineFacts {
  return {
    kind: line.kind,
    terms: line.terms,
    plan: line.plan,
    plan_name: line.plan_name,
    plan_code: line.plan_code,
    terms_code: line.terms_code,
    collect_vat: line.collect_vat,
    vat_type: line.vat_type,
    date_from: line.date_from,
    date_to: line.date_to,
    days: line.days,
    period_days: line.period_days,
    period_date_from: line.period_date_from,
    period_date_to: line.period_date_to,
    quantity: line.quantity,
    unit_price: line.unit_price,
    price_source: line.price_source,
    tiers_applied: line.tiers_applied,
    discounted_unit_price: line.discounted_unit_price,
    amount: line.amount,
  };
}
