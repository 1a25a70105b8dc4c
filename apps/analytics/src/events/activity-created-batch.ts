import { outboxInsert, outboxRecord } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findActivityNames, heldActivityView } from '../db/activity-news.js';
import type { SqlStatement } from '../db/sql-rows.js';
import type { ActivityRecord } from '../domain/activity-ledger.js';
import { activityCreatedEventOf } from './activity-events.js';

/** The activities one event recorded, to announce as its news. */
export interface RecordedActivities {
  source: { organizationId: string; requestId: string; occurredAt: Date };
  /** In recording order, as the transaction wrote them (the rows it holds; one dropped is not news). */
  activities: readonly ActivityRecord[];
}

/**
 * publishActivitiesSince for the events of a batch at once, as the statement that writes it:
 * activity.created of each recorded activity, as its GET shows it once the batch's writes are done
 * (ones deleted or dropped are not news), in the events' order and each event's recording order;
 * null when there is none. The caller runs it with the batch's writes, in the same transaction (the
 * outbox) and the same round trip (runWrites). The activities are not read back: the batch holds
 * them as it writes them, and one statement per organization (per round of invoice events) reads
 * the names their views join (heldActivityView), which the batch's writes do not change.
 */
export async function activitiesCreatedInsert(
  em: EntityManager,
  recorded: readonly RecordedActivities[],
): Promise<SqlStatement | null> {
  const byOrganization = new Map<string, ActivityRecord[]>();
  for (const { source, activities } of recorded) {
    const records = byOrganization.get(source.organizationId) ?? [];
    records.push(...activities);
    byOrganization.set(source.organizationId, records);
  }
  // Read models changed through the unit of work (a plan's name applied before) are written first.
  await em.flush();
  const events = new Map<ActivityRecord, ReturnType<typeof activityCreatedEventOf>>();
  for (const [organizationId, records] of byOrganization) {
    if (records.length === 0) continue;
    const names = await findActivityNames(em, organizationId, records);
    for (const record of records) {
      const { view, plans } = heldActivityView(record, names);
      if (!view.deleted) events.set(record, activityCreatedEventOf(view, plans));
    }
  }
  const records = recorded.flatMap(({ source, activities }) =>
    activities.flatMap((activity) => {
      const event = events.get(activity);
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
  return outboxInsert(em, records);
}
