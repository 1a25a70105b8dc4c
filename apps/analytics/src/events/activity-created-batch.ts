import { insertOutboxRecords, outboxRecord } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { embeddedPlans, findActivityViews } from '../db/activity-queries.js';
import { readSettings } from '../use-cases/organization-settings.js';
import { activityCreatedEventOf, embeddedPlanIds } from './activity-events.js';

/** The activities one event recorded, to announce as its news. */
export interface RecordedActivities {
  source: { organizationId: string; requestId: string; occurredAt: Date };
  /** In recording order. */
  activityIds: readonly string[];
}

/**
 * publishActivitiesSince for the events of a batch at once: activity.created of each recorded
 * activity, as its GET shows it now, in the caller's transaction (the outbox), in the events'
 * order and each event's recording order; read with one statement per organization for the
 * activities and one for their plans, written with one insert.
 */
export async function publishActivitiesCreated(
  em: EntityManager,
  recorded: readonly RecordedActivities[],
): Promise<void> {
  const idsByOrganization = new Map<string, string[]>();
  for (const { source, activityIds } of recorded) {
    const ids = idsByOrganization.get(source.organizationId) ?? [];
    ids.push(...activityIds);
    idsByOrganization.set(source.organizationId, ids);
  }
  const events = new Map<string, ReturnType<typeof activityCreatedEventOf>>();
  for (const [organizationId, ids] of idsByOrganization) {
    if (ids.length === 0) continue;
    const { base } = await readSettings(em, organizationId);
    const views = await findActivityViews(em, organizationId, base, ids);
    const plans = await embeddedPlans(em, organizationId, embeddedPlanIds(views));
    for (const view of views) events.set(view.uuid, activityCreatedEventOf(view, plans));
  }
  const records = recorded.flatMap(({ source, activityIds }) =>
    activityIds.map((id) => {
      const event = events.get(id);
      if (!event) throw new Error(`activity ${id} of ${source.organizationId} is not there to publish`);
      return outboxRecord({
        producer: 'analytics',
        organizationId: source.organizationId,
        occurredAt: source.occurredAt,
        requestId: source.requestId,
        ...event,
      }).record;
    }),
  );
  await insertOutboxRecords(em, records);
}
