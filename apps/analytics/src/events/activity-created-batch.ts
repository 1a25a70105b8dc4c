import { insertOutboxRecords, outboxRecord } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findActivityNews } from '../db/activity-queries.js';
import { activityCreatedEventOf } from './activity-events.js';

/** The activities one event recorded, to announce as its news. */
export interface RecordedActivities {
  source: { organizationId: string; requestId: string; occurredAt: Date };
  /** In recording order. */
  activityIds: readonly string[];
}

/**
 * publishActivitiesSince for the events of a batch at once: activity.created of each recorded
 * activity, as its GET shows it now (ones deleted or dropped by then are not news), in the caller's
 * transaction (the outbox), in the events' order and each event's recording order; read with one
 * statement per organization (the activities, its base currency and their plans), written with one insert.
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
  await em.flush();
  const found = new Set<string>();
  const events = new Map<string, ReturnType<typeof activityCreatedEventOf>>();
  for (const [organizationId, ids] of idsByOrganization) {
    if (ids.length === 0) continue;
    const { views, plans } = await findActivityNews(em, organizationId, ids);
    for (const view of views) found.add(view.uuid);
    for (const view of views) if (!view.deleted) events.set(view.uuid, activityCreatedEventOf(view, plans));
  }
  const records = recorded.flatMap(({ source, activityIds }) =>
    activityIds.flatMap((id) => {
      if (!found.has(id)) throw new Error(`activity ${id} of ${source.organizationId} is not there to publish`);
      const event = events.get(id);
      if (!event) return [];
      return [
        outboxRecord({
          producer: 'analytics',
          organizationId: source.organizationId,
          occurredAt: source.occurredAt,
          requestId: source.requestId,
          ...event,
        }).record,
      ];
    }),
  );
  await insertOutboxRecords(em, records);
}
