import type { analyticsV1, catalogV1 } from '@billing/proto';
import { nullable, tagged } from './representation.js';
import { presentEmbeddedPlan } from './subscription.js';

const iso = (value: Date | undefined): string | null => (value ? value.toISOString() : null);

/** The plans an activity embeds (old_plan, new_plan), by uuid. */
export type ActivityPlans = ReadonlyMap<
  string,
  Pick<catalogV1.Plan, 'uuid' | 'name' | 'code' | 'collect_vat' | 'vat_type'>
>;

/**
 * api-spec "Activity": old_plan / new_plan embedded (null when the plan is not in `plans`), the
 * deprecated *_plan_name beside them. The gateway's answers and the new_activity webhook's data.
 */
export function presentActivity(activity: analyticsV1.Activity, plans: ActivityPlans) {
  const plan = (uuid: string | undefined) => {
    const found = uuid ? plans.get(uuid) : undefined;
    return found ? presentEmbeddedPlan(found) : null;
  };
  return tagged('activity', {
    uuid: activity.uuid,
    account_uuid: activity.account_uuid,
    account_code: activity.account_code,
    subscription: nullable(activity.subscription),
    invoice: nullable(activity.invoice),
    date: iso(activity.date) as string,
    created_date: iso(activity.created_date) as string,
    updated_date: iso(activity.updated_date) as string,
    type: activity.type,
    is_manual: activity.is_manual,
    is_churn: activity.is_churn,
    deleted: activity.deleted,
    ean_invoice: activity.ean_invoice,
    old_currency: nullable(activity.old_currency),
    new_currency: nullable(activity.new_currency),
    old_mrr_in_subscription_currency: nullable(activity.old_mrr_in_subscription_currency),
    new_mrr_in_subscription_currency: nullable(activity.new_mrr_in_subscription_currency),
    old_mrr: nullable(activity.old_mrr),
    new_mrr: nullable(activity.new_mrr),
    mrr_change: nullable(activity.mrr_change),
    quantity_change: nullable(activity.quantity_change),
    old_quantity: nullable(activity.old_quantity),
    new_quantity: nullable(activity.new_quantity),
    old_terms: nullable(activity.old_terms),
    new_terms: nullable(activity.new_terms),
    old_terms_name: nullable(activity.old_terms_name),
    new_terms_name: nullable(activity.new_terms_name),
    old_plan: plan(activity.old_plan),
    new_plan: plan(activity.new_plan),
    old_plan_name: nullable(activity.old_plan_name),
    new_plan_name: nullable(activity.new_plan_name),
    company_name: activity.company_name,
  });
}
