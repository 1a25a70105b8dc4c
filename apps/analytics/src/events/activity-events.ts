import { appendToOutbox } from '@billing/events';
import { activityEventsV1, type catalogV1, encodeMessage } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  activityIdsRecordedSince,
  type EmbeddedPlanRow,
  embeddedPlans,
  findActivityView,
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
  return activityCreatedEventOf(view, await embeddedPlans(em, organizationId, embeddedPlanIds([view])));
}

/** The plans activities embed (old_plan / new_plan), each once. */
export const embeddedPlanIds = (views: readonly ActivityView[]): string[] => [
  ...new Set(views.flatMap((view) => [view.old_plan, view.new_plan]).filter((id): id is string => id !== null)),
];

/**
 * activity.created of an activity as its GET shows it, with the plans it embeds (found among
 * `plans`; the old plan first, as the activity names them, so the payload does not depend on the
 * order a query returned them in).
 */
export function activityCreatedEventOf(view: ActivityView, plans: readonly EmbeddedPlanRow[]): ActivityEvent {
  const byId = new Map(plans.map((row) => [row.id, row]));
  const embedded: catalogV1.Plan[] = embeddedPlanIds([view]).flatMap((id) => {
    const row = byId.get(id);
    return row
      ? [
          {
            uuid: row.id,
            name: row.name,
            code: row.code,
            description: '',
            collect_vat: row.collect_vat,
            vat_type: row.vat_type,
            planterms: [],
          },
        ]
      : [];
  });
  return {
    eventType: ACTIVITY_CREATED,
    aggregateType: 'activity',
    aggregateId: view.uuid,
    payloadType: 'billing.events.v1.ActivityChanged',
    payload: encodeMessage(activityEventsV1.ActivityChanged, { activity: activityMessage(view), plans: embedded }),
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
