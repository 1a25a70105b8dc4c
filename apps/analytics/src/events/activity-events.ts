import { appendToOutbox, insertOutboxRecords, type OutboxRecord, outboxRecord } from '@billing/events';
import { activityEventsV1, type catalogV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  activityIdsRecordedSince,
  embeddedPlans,
  findActivityView,
  findActivityViews,
  nextActivitySeq,
} from '../db/activity-queries.js';
import type { ActivityView } from '../domain/activity-view.js';
import { activityMessage } from '../grpc/activity-mapper.js';
import { readSettings } from '../use-cases/organization-settings.js';

/** The event an activity's recording publishes (stream ANALYTICS): accounts' `new_activity` webhook. */
export const ACTIVITY_CREATED = 'activity.created';

/** An outbox event as a change scope publishes it (runChange's `scope.publish`). */
export interface ActivityEvent {
  eventType: string;
  aggregateType: string;
  aggregateId: string;
  payloadType: string;
  payload: Uint8Array;
}

/** activity.created of one recorded activity: as its GET shows it now, with the plans it embeds. */
export async function activityCreatedEvent(
  em: EntityManager,
  organizationId: string,
  activityId: string,
): Promise<ActivityEvent> {
  await em.flush();
  const { base } = await readSettings(em, organizationId);
  const view = await findActivityView(em, organizationId, base, activityId);
  if (!view) throw new Error(`activity ${activityId} of ${organizationId} is not there to publish`);
  return activityCreatedOf(view, await embeddedPlans(em, organizationId, embeddedPlanIds(view)));
}

type EmbeddedPlanRow = Awaited<ReturnType<typeof embeddedPlans>>[number];

const embeddedPlanIds = (view: ActivityView): string[] => [
  ...new Set([view.old_plan, view.new_plan].filter((id): id is string => id !== null)),
];

function activityCreatedOf(view: ActivityView, rows: readonly EmbeddedPlanRow[]): ActivityEvent {
  const plans: catalogV1.Plan[] = rows.map((row) => ({
    uuid: row.id,
    name: row.name,
    code: row.code,
    description: '',
    collect_vat: row.collect_vat,
    vat_type: row.vat_type,
    planterms: [],
  }));
  return {
    eventType: ACTIVITY_CREATED,
    aggregateType: 'activity',
    aggregateId: view.uuid,
    payloadType: 'billing.events.v1.ActivityChanged',
    payload: activityEventsV1.ActivityChanged.encode({ activity: activityMessage(view), plans }).finish(),
  };
}

/**
 * A mark before an event is applied: the activities its transaction records come after it. Every
 * earlier activity of the organization was recorded under the organization's lock, which the
 * caller holds, so they all lie below (the sequence's value is taken, not read, to be exact).
 */
export const activityMark = nextActivitySeq;

/**
 * Publishes activity.created for every activity of the organization recorded since `mark`, in the
 * caller's transaction (the outbox), oldest first; ones dropped as they were made are not news.
 */
export async function publishActivitiesSince(
  em: EntityManager,
  source: { organizationId: string; requestId: string; occurredAt: Date },
  mark: number,
): Promise<void> {
  await em.flush();
  for (const id of await activityIdsRecordedSince(em, source.organizationId, mark)) {
    const event = await activityCreatedEvent(em, source.organizationId, id);
    appendToOutbox(em, {
      producer: 'analytics',
      organizationId: source.organizationId,
      occurredAt: source.occurredAt,
      requestId: source.requestId,
      ...event,
    });
  }
}

/** An activity an event recorded, and what the event's activity.created carries of the event. */
export interface RecordedActivity {
  organizationId: string;
  activityId: string;
  requestId: string;
  occurredAt: Date;
}

/**
 * Publishes activity.created for activities recorded by many events at once, as each event's
 * publishActivitiesSince would (as the GET shows the activity now; ones deleted or dropped are not
 * news), in the given order, with one read per organization and one outbox insert.
 */
export async function publishRecordedActivities(em: EntityManager, recorded: readonly RecordedActivity[]) {
  await em.flush();
  const byOrganization = new Map<string, RecordedActivity[]>();
  for (const activity of recorded) {
    const activities = byOrganization.get(activity.organizationId) ?? [];
    if (activities.length === 0) byOrganization.set(activity.organizationId, activities);
    activities.push(activity);
  }
  const views = new Map<string, ActivityView>();
  const plans = new Map<string, EmbeddedPlanRow>();
  for (const [organizationId, activities] of byOrganization) {
    const { base } = await readSettings(em, organizationId);
    const found = await findActivityViews(
      em,
      organizationId,
      base,
      activities.map((activity) => activity.activityId),
    );
    for (const [id, view] of found) views.set(id, view);
    const planIds = [...new Set([...found.values()].filter((view) => !view.deleted).flatMap(embeddedPlanIds))];
    for (const row of await embeddedPlans(em, organizationId, planIds)) plans.set(`${organizationId}/${row.id}`, row);
  }
  const records: OutboxRecord[] = [];
  for (const activity of recorded) {
    const view = views.get(activity.activityId);
    if (!view) throw new Error(`activity ${activity.activityId} of ${activity.organizationId} is not there to publish`);
    if (view.deleted) continue;
    const embedded = embeddedPlanIds(view).flatMap((id) => plans.get(`${activity.organizationId}/${id}`) ?? []);
    const { record } = outboxRecord({
      producer: 'analytics',
      organizationId: activity.organizationId,
      occurredAt: activity.occurredAt,
      requestId: activity.requestId,
      ...activityCreatedOf(view, embedded),
    });
    records.push(record);
  }
  await insertOutboxRecords(em, records);
}
