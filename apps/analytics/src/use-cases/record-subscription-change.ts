import type { EntityManager } from '@mikro-orm/postgresql';
import { rederiveAccountActivities } from '../db/account-activity-store.js';
import { type ActivityContext, dropAllActivities, dropPlannedExcept, saveActivity } from '../db/activity-store.js';
import { heldRateOf, lockSubscriptionMrr, saveSubscriptionMrr } from '../db/subscription-mrr-store.js';
import { rateActivities, ratePlanned } from '../domain/activity-rates.js';
import { activitiesOfChange, type SubscriptionChange } from '../domain/subscription-activities.js';
import type { SubscriptionRecord } from '../domain/subscription-record.js';
import { organizationSettings } from './organization-settings.js';

/**
 * One subscription.changed, in the consumer's transaction: its activities (planned ones for what
 * the subscription now plans, dropping those it gave up), the subscription's MRR row and the
 * organization's totals, and the account's activities derived again. `now` is the event's moment.
 */
export async function recordSubscriptionChange(
  em: EntityManager,
  organizationId: string,
  change: SubscriptionChange,
  record: SubscriptionRecord,
  now: Date,
): Promise<void> {
  const organization = await organizationSettings(em, organizationId);
  const rateAt = organization.rateAt(record.pricing.currency);
  const stored = await lockSubscriptionMrr(em, record.uuid);
  const held = stored ? heldRateOf(stored) : rateAt(change.effective_at);
  const outcome = activitiesOfChange(change);
  const context: ActivityContext = {
    organizationId,
    accountId: record.account,
    subscriptionId: record.uuid,
    baseCurrency: organization.base,
    churnReason: change.subscription.churn_reason,
    customChurnReason: change.subscription.custom_churn_reason,
    now,
  };
  let heldAfter = held;
  if (outcome.dropAll) {
    await dropAllActivities(em, record.uuid, now);
  } else {
    const rated = rateActivities(outcome.happened, held, rateAt);
    heldAfter = rated.heldRate;
    for (const activity of rated.activities) await saveActivity(em, activity, context);
    await em.flush();
    const planned = ratePlanned(outcome.planned, heldAfter, rateAt);
    for (const activity of planned) await saveActivity(em, activity, context);
    await em.flush();
    await dropPlannedExcept(
      em,
      record.uuid,
      planned.flatMap((activity) => (activity.plan_key ? [activity.plan_key] : [])),
      now,
    );
  }
  const rate = record.status === 'scheduled' && record.start_date ? rateAt(record.start_date) : heldAfter;
  await saveSubscriptionMrr(em, organizationId, stored, record, rate, organization.base, outcome.dropAll);
  await rederiveAccountActivities(em, organizationId, record.account, now);
}
