import type { ChargeView } from '../domain/charge-view.js';
import type { ChargeRow } from './entities/charge.entity.js';
import type { SubscriptionRow } from './entities/subscription.entity.js';
import type { CatalogEntry } from './subscription-catalog.js';

/** The fields of a charge a document needs (a stored charge row, or a previewed one). */
export type ChargeFacts = Pick<
  ChargeRow,
  | 'id'
  | 'subscription_id'
  | 'account_id'
  | 'kind'
  | 'currency'
  | 'amount'
  | 'due_at'
  | 'period_start'
  | 'lines'
  | 'credit_all_invoices'
>;

/** A charge with its lines' plans and the subscription's invoice fields now, as invoicing receives it. */
export function chargeView(
  charge: ChargeFacts,
  subscription: SubscriptionRow,
  catalog: (termsId: string) => CatalogEntry,
): ChargeView {
  return {
    uuid: charge.id,
    subscription: charge.subscription_id,
    account: charge.account_id,
    kind: charge.kind,
    currency: charge.currency,
    amount: charge.amount,
    due_at: charge.due_at,
    period_start: charge.period_start,
    lines: charge.lines.map((line) => {
      const { terms, plan } = catalog(line.terms);
      return {
        ...line,
        plan_name: plan.name,
        plan_code: plan.code,
        terms_code: terms.code,
        collect_vat: plan.collect_vat,
        vat_type: plan.vat_type,
        revenue_group: terms.revenue_group ?? null,
      };
    }),
    group_on_invoice: subscription.group_on_invoice,
    po_number: subscription.po_number,
    payment_terms: subscription.payment_terms ?? null,
    collection_method: subscription.collection_method,
    invoice_supplement: subscription.invoice_supplement ?? null,
    reference_person: subscription.reference_person,
    account_reference_person: subscription.account_reference_person,
    case_number: subscription.case_number,
    custom_fields: subscription.custom_fields,
    credit_all_invoices: charge.credit_all_invoices,
  };
}
