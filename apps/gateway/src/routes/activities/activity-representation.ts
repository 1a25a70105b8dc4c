import type { analyticsV1, catalogV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { nullable, tagged } from '../shared/representation.js';
import { presentEmbeddedPlan } from '../subscriptions/subscription-representation.js';
import type { ACCOUNT_ACTIVITY_TYPES, ACTIVITY_TYPES } from './activity-schemas.js';

const iso = (value: Date | undefined): string | null => (value ? value.toISOString() : null);

/**
 * The plans the activities name, one GetPlan per distinct plan (a page names few). A plan the
 * catalog no longer answers for is shown as null.
 */
export async function loadActivityPlans(
  clients: Pick<ServiceClients, 'catalog'>,
  activities: readonly analyticsV1.Activity[],
): Promise<Map<string, catalogV1.Plan>> {
  const uuids = [...new Set(activities.flatMap((a) => [a.old_plan, a.new_plan]))].filter(
    (uuid): uuid is string => uuid !== undefined && uuid !== '',
  );
  const plans = await Promise.all(
    uuids.map(async (uuid) => {
      try {
        return (await clients.catalog.call('getPlan', { uuid })).plan;
      } catch {
        return undefined;
      }
    }),
  );
  return new Map(plans.flatMap((plan) => (plan ? [[plan.uuid, plan] as const] : [])));
}

/** api-spec "Activity": old_plan / new_plan embedded, the deprecated *_plan_name beside them. */
export function presentActivity(activity: analyticsV1.Activity, plans: ReadonlyMap<string, catalogV1.Plan>) {
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
    type: activity.type as (typeof ACTIVITY_TYPES)[number],
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

/** api-spec "Account activity". */
export function presentAccountActivity(activity: analyticsV1.AccountActivity) {
  return tagged('account_activity', {
    uuid: activity.uuid,
    account_uuid: activity.account_uuid,
    account_code: activity.account_code,
    company_name: activity.company_name,
    type: activity.type as (typeof ACCOUNT_ACTIVITY_TYPES)[number],
    mrr_change: activity.mrr_change,
    new_mrr: nullable(activity.new_mrr),
    old_mrr: nullable(activity.old_mrr),
    created_date: iso(activity.created_date) as string,
    date: iso(activity.date) as string,
    subscription: nullable(activity.subscription),
    is_manual: activity.is_manual,
    deleted: activity.deleted,
    churn_reason: activity.churn_reason,
    account_first_subscription_start_date: iso(activity.account_first_subscription_start_date),
  });
}
