import type { Write } from '@billing/domain-kit';
import type { subscriptionsV1 } from '@billing/proto';
import type { SubscriptionRow } from '../db/entities/subscription.entity.js';
import type { CatalogEntry } from '../db/subscription-catalog.js';
import { embeddedPlan, embeddedTerms } from '../db/subscription-catalog.js';
import { presentPrice } from '../domain/catalog/prices.js';
import { type SubscriptionState, subscriptionFigures } from '../domain/lifecycle/index.js';
import type { SubscriptionFields } from '../domain/subscription-fields.js';
import { planTermsMessage } from './catalog-mapper.js';

const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** The subscription as the proto carries it; the gateway adds the embedded account and churn reason. */
export function subscriptionMessage(
  row: SubscriptionRow,
  state: SubscriptionState,
  catalog: (termsId: string) => CatalogEntry,
): subscriptionsV1.Subscription {
  const entry = catalog(row.plan_terms_id);
  const figures = subscriptionFigures(state);
  const change = row.scheduled_change ?? null;
  return {
    uuid: row.id,
    account: row.account_id,
    terms: planTermsMessage(embeddedTerms(entry)),
    plan: { ...embeddedPlan(entry), planterms: [] },
    start_date: row.start_date,
    end_date: orUndefined(row.end_date),
    created_date: row.created_at,
    last_modified_date: row.updated_at,
    next_renewal_date: orUndefined(row.next_renewal_date),
    last_renewal_date: orUndefined(row.last_renewal_date),
    base_renewal_date: orUndefined(row.base_renewal_date),
    original_start_date: row.original_start_date,
    quantity: row.quantity,
    collection_method: row.collection_method,
    group_on_invoice: row.group_on_invoice,
    is_auto_renew_enabled: row.is_auto_renew_enabled,
    payment_terms: orUndefined(row.payment_terms),
    pre_renewal_days_offset: row.pre_renewal_days_offset,
    pre_renewal_invoicing: row.pre_renewal_invoicing,
    po_number: row.po_number,
    invoice_supplement: orUndefined(row.invoice_supplement),
    override_price: row.override_price ? presentPrice(row.override_price) : undefined,
    reference_person: row.reference_person,
    account_reference_person: row.account_reference_person,
    case_number: row.case_number,
    status: row.status,
    current_mrr: figures.current_mrr,
    committed_mrr: figures.committed_mrr,
    final_price: figures.final_price,
    churn_reason: orUndefined(row.churn_reason_id),
    custom_churn_reason: orUndefined(row.custom_churn_reason),
    custom_fields: row.custom_fields,
    scheduled_changes: change
      ? [
          {
            uuid: change.uuid,
            date: new Date(change.at),
            terms: change.terms_id,
            quantity: change.quantity,
            change_type: change.change_type,
          },
        ]
      : [],
    cancellation_type: orUndefined(row.cancellation_type),
    cancel_at: orUndefined(row.cancel_at),
    version: row.version,
  };
}

/** A REST write: the present field names plus the message; present-but-unset is null. */
export function subscriptionWrite(
  input: subscriptionsV1.SubscriptionInput | undefined,
  presentFields: string[],
): Write<SubscriptionFields> {
  const message = (input ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of presentFields) values[field] = message[field] === undefined ? null : message[field];
  return { values: values as Write<SubscriptionFields>['values'], present: new Set(presentFields) };
}
