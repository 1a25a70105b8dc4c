import { effectivePaymentTerms as paymentTermsRule, takesOrganizationPaymentTerms } from '@billing/domain-kit';
import type { accountsV1, catalogV1, subscriptionsV1 } from '@billing/proto';
import type { CHANGE_TYPES, SUBSCRIPTION_STATUSES } from '@billing/reference-data';
import { presentPlanTerms } from './catalog.js';
import { presentChurnReason } from './churn-reason.js';
import { nullable, tagged } from './representation.js';

/** What a subscription shows of other services' objects, loaded once for a whole page. */
export interface SubscriptionEmbeds {
  /** Account summaries by account uuid (accounts service). */
  accounts: ReadonlyMap<string, accountsV1.AccountSummary>;
  /** Churn reasons by uuid (the organization's settings in the accounts service). */
  churnReasons: ReadonlyMap<string, accountsV1.ChurnReason>;
  /** The organization's default payment terms; loaded only when some subscription needs it. */
  organizationPaymentTerms: number | null;
}

const iso = (instant: Date | undefined): string | null => instant?.toISOString() ?? null;

/** api-spec "Minimal embedded account". */
export function presentEmbeddedAccount(summary: accountsV1.AccountSummary) {
  return tagged('account', {
    uuid: summary.uuid,
    display_name: summary.display_name,
    company_name: nullable(summary.company_name),
    code: summary.code,
    type: summary.type as 'company' | 'person',
  });
}

/** api-spec "Embedded plan": uuid, name, code, collect_vat, vat_type (no plan terms). */
export function presentEmbeddedPlan(plan: Pick<catalogV1.Plan, 'uuid' | 'name' | 'code' | 'collect_vat' | 'vat_type'>) {
  return tagged('plan', {
    uuid: plan.uuid,
    name: plan.name,
    code: plan.code,
    collect_vat: plan.collect_vat,
    vat_type: plan.vat_type as 'physical' | 'services' | 'unknown',
  });
}

function presentScheduledChange(change: subscriptionsV1.ScheduledChange) {
  return tagged('scheduled_change', {
    uuid: change.uuid,
    date: iso(change.date) as string,
    terms: change.terms,
    quantity: change.quantity,
    change_type: change.change_type as (typeof CHANGE_TYPES)[number],
  });
}

/**
 * The payment terms that apply (domain-kit effectivePaymentTerms: the subscription's own, else the
 * account's default, else the organization's), as a string, as the contract types it.
 */
export function effectivePaymentTerms(
  subscription: subscriptionsV1.Subscription,
  embeds: Pick<SubscriptionEmbeds, 'accounts' | 'organizationPaymentTerms'>,
): string {
  const terms = paymentTermsRule(
    subscription.payment_terms,
    embeds.accounts.get(subscription.account)?.payment_terms,
    embeds.organizationPaymentTerms,
  );
  return terms === null ? '' : String(terms);
}

/** Whether effectivePaymentTerms needs the organization's default for this subscription. */
export function needsOrganizationPaymentTerms(
  subscription: subscriptionsV1.Subscription,
  accounts: SubscriptionEmbeds['accounts'],
): boolean {
  return takesOrganizationPaymentTerms(subscription.payment_terms, accounts.get(subscription.account)?.payment_terms);
}

/**
 * The Subscription of the contract. `account` is the minimal embedded account, or null once the
 * account no longer exists (an account may be deleted when its subscriptions have all expired);
 * `account_code` follows it. `churn_reason` is embedded, also when the reason was deleted later.
 */
export function presentSubscription(subscription: subscriptionsV1.Subscription, embeds: SubscriptionEmbeds) {
  const account = embeds.accounts.get(subscription.account);
  const churnReason = subscription.churn_reason ? embeds.churnReasons.get(subscription.churn_reason) : undefined;
  return tagged('subscription', {
    uuid: subscription.uuid,
    account: account ? presentEmbeddedAccount(account) : null,
    account_uuid: subscription.account,
    account_code: account?.code ?? null,
    terms: presentPlanTerms(subscription.terms!),
    plan: presentEmbeddedPlan(subscription.plan!),
    start_date: iso(subscription.start_date),
    end_date: iso(subscription.end_date),
    created_date: iso(subscription.created_date) as string,
    last_modified_date: iso(subscription.last_modified_date) as string,
    next_renewal_date: iso(subscription.next_renewal_date),
    last_renewal_date: iso(subscription.last_renewal_date),
    base_renewal_date: iso(subscription.base_renewal_date),
    original_start_date: iso(subscription.original_start_date),
    quantity: subscription.quantity,
    collection_method: subscription.collection_method as 'payment_card' | 'invoice' | 'direct_debit',
    group_on_invoice: subscription.group_on_invoice,
    is_auto_renew_enabled: subscription.is_auto_renew_enabled,
    payment_terms: nullable(subscription.payment_terms),
    effective_payment_terms: effectivePaymentTerms(subscription, embeds),
    pre_renewal_days_offset: subscription.pre_renewal_days_offset,
    pre_renewal_invoicing: subscription.pre_renewal_invoicing,
    po_number: subscription.po_number,
    invoice_supplement: nullable(subscription.invoice_supplement),
    override_price: nullable(subscription.override_price),
    reference_person: subscription.reference_person,
    account_reference_person: subscription.account_reference_person,
    case_number: subscription.case_number,
    status: subscription.status as (typeof SUBSCRIPTION_STATUSES)[number],
    current_mrr: subscription.current_mrr,
    committed_mrr: subscription.committed_mrr,
    final_price: subscription.final_price,
    churn_reason: churnReason ? presentChurnReason(churnReason) : null,
    custom_churn_reason: nullable(subscription.custom_churn_reason),
    custom_fields: subscription.custom_fields ?? {},
    scheduled_changes: subscription.scheduled_changes.map(presentScheduledChange),
  });
}

export type SubscriptionRepresentation = ReturnType<typeof presentSubscription>;
