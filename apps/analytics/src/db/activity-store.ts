import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ActivityContext, activityColumns } from '../domain/activity-columns.js';
import type { RatedActivity } from '../domain/activity-rates.js';
import { ActivityEntity, type ActivityRow } from './entities/activity.entity.js';

export type { ActivityContext } from '../domain/activity-columns.js';

/**
 * Records a subscription's activity. One with a plan key completes or re-plans the row of that
 * key (a planned row turns happened; a happened row is not planned again), others are new rows.
 */
export async function saveActivity(em: EntityManager, activity: RatedActivity, context: ActivityContext) {
  const columns = activityColumns(activity, context);
  if (activity.plan_key) {
    const existing = await em.findOne(ActivityEntity, {
      subscription_id: context.subscriptionId,
      plan_key: activity.plan_key,
    });
    if (existing) {
      if (activity.planned && !existing.planned) return;
      em.assign(existing, { ...columns, planned: activity.planned, dropped: false, updated_date: context.now });
      return;
    }
  }
  em.create(ActivityEntity, {
    id: randomUUID(),
    organization_id: context.organizationId,
    account_id: context.accountId,
    subscription_id: context.subscriptionId,
    invoice_id: null,
    created_date: context.now,
    updated_date: context.now,
    is_manual: false,
    deleted: false,
    dropped: false,
    planned: activity.planned,
    plan_key: activity.plan_key,
    ...columns,
  } as ActivityRow);
}

/** Planned activities of the subscription whose moment is no longer planned are dropped. */
export async function dropPlannedExcept(em: EntityManager, subscriptionId: string, keep: string[], now: Date) {
  const planned = await em.find(ActivityEntity, { subscription_id: subscriptionId, planned: true, dropped: false });
  for (const row of planned) {
    if (row.plan_key && keep.includes(row.plan_key)) continue;
    em.assign(row, { dropped: true, planned: false, updated_date: now });
  }
}

/** cancel_invalid: every activity of the subscription is dropped. */
export async function dropAllActivities(em: EntityManager, subscriptionId: string, now: Date) {
  const rows = await em.find(ActivityEntity, { subscription_id: subscriptionId, dropped: false });
  for (const row of rows) em.assign(row, { dropped: true, planned: false, updated_date: now });
}
