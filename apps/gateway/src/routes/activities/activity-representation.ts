import type { analyticsV1, catalogV1 } from '@billing/proto';
import { presentActivity as presentSharedActivity } from '@billing/rest-representation';
import type { ServiceClients } from '../../clients/service-clients.js';
import { nullable, tagged } from '../shared/representation.js';
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

/** api-spec "Activity" (libs/rest-representation, shared with the new_activity webhook), typed by its types. */
export function presentActivity(activity: analyticsV1.Activity, plans: ReadonlyMap<string, catalogV1.Plan>) {
  return { ...presentSharedActivity(activity, plans), type: activity.type as (typeof ACTIVITY_TYPES)[number] };
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
