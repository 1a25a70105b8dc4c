import { type chargesV1, subscriptionEventsV1, type subscriptionsV1 } from '@billing/proto';
import type { ChargeRow } from '../db/entities/charge.entity.js';
import type { SubscriptionRow } from '../db/entities/subscription.entity.js';
import type { CatalogEntry } from '../db/subscription-catalog.js';
import {
  type LifecycleEvent,
  pricingFigures,
  type SubscriptionPricing,
  type SubscriptionStatus,
} from '../domain/lifecycle/index.js';
import type { ChangeScope } from '../use-cases/change-transaction.js';

/** Subjects this service publishes on (stream SUBSCRIPTIONS) besides the catalog's and contracts'. */
export const SUBSCRIPTION_EVENT_TYPES = ['subscription.changed', 'charge.created'] as const;

function pricingMessage(
  pricing: SubscriptionPricing,
  status: SubscriptionStatus,
): subscriptionEventsV1.SubscriptionPricing {
  return {
    terms: pricing.terms.uuid,
    plan: pricing.terms.plan,
    status,
    quantity: pricing.quantity,
    currency: pricing.terms.currency,
    interval_type: pricing.terms.interval.type,
    interval_count: pricing.terms.interval.count,
    ...pricingFigures(pricing),
  };
}

/**
 * subscription.changed: one per thing that happened, in order, each with the pricing before and
 * after it, and the subscription's state after the whole change.
 */
export function publishSubscriptionChanged(
  scope: ChangeScope,
  subscription: subscriptionsV1.Subscription,
  event: Pick<LifecycleEvent, 'change' | 'effective_at' | 'old' | 'change_type' | 'cancellation_type'>,
  after: { pricing: SubscriptionPricing; status: SubscriptionStatus },
): void {
  const payload: subscriptionEventsV1.SubscriptionChanged = {
    subscription,
    change: event.change,
    old_pricing: event.old ? pricingMessage(event.old.pricing, event.old.status) : undefined,
    new_pricing: pricingMessage(after.pricing, after.status),
    effective_at: event.effective_at,
    change_type: event.change_type ?? '',
    cancellation_type: event.cancellation_type ?? '',
  };
  scope.publish({
    eventType: 'subscription.changed',
    aggregateType: 'subscription',
    aggregateId: subscription.uuid,
    payloadType: 'billing.events.v1.SubscriptionChanged',
    payload: subscriptionEventsV1.SubscriptionChanged.encode(payload).finish(),
  });
}

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

/** A charge as invoicing receives it: lines with their plan, and the subscription's invoice fields now. */
export function chargeMessage(
  charge: ChargeFacts,
  subscription: SubscriptionRow,
  catalog: (termsId: string) => CatalogEntry,
): chargesV1.Charge {
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
        tiers_applied: line.tiers_applied.map((tier) => ({
          ...tier,
          maximum_quantity: tier.maximum_quantity ?? undefined,
        })),
        plan_name: plan.name,
        plan_code: plan.code,
        terms_code: terms.code,
        collect_vat: plan.collect_vat,
        vat_type: plan.vat_type,
        revenue_group: terms.revenue_group ?? undefined,
      };
    }),
    group_on_invoice: subscription.group_on_invoice,
    po_number: subscription.po_number,
    payment_terms: subscription.payment_terms ?? undefined,
    collection_method: subscription.collection_method,
    invoice_supplement: subscription.invoice_supplement ?? undefined,
    reference_person: subscription.reference_person,
    account_reference_person: subscription.account_reference_person,
    case_number: subscription.case_number,
    custom_fields: subscription.custom_fields,
    credit_all_invoices: charge.credit_all_invoices,
  };
}

/** charge.created: the document invoicing issues, with the invoice fields of the subscription at that moment. */
export function publishChargeCreated(
  scope: ChangeScope,
  charge: ChargeRow,
  subscription: SubscriptionRow,
  catalog: (termsId: string) => CatalogEntry,
): void {
  const message = chargeMessage(charge, subscription, catalog);
  scope.publish({
    eventType: 'charge.created',
    aggregateType: 'subscription',
    aggregateId: charge.subscription_id,
    payloadType: 'billing.events.v1.ChargeCreated',
    payload: subscriptionEventsV1.ChargeCreated.encode({ charge: message }).finish(),
  });
}
