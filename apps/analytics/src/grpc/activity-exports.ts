import type { Clock } from '@billing/clock';
import { type ExportSource, pagesOf } from '@billing/exports';
import { analyticsV1 } from '@billing/proto';
import { orgNow } from '@billing/runtime';
import type { AccountActivityView, ActivityView } from '../domain/activity-view.js';
import { exportAccountActivities, exportActivities } from '../use-cases/export-activities.js';
import {
  accountActivityFilterOf,
  accountActivityMessage,
  activityFilterOf,
  activityMessage,
} from './activity-mapper.js';

/** Rows per stored page: one ListActivitiesResponse / ListAccountActivitiesResponse. */
const PAGE_ROWS = 500;

/**
 * The activity list's export ("activities"): params a ListActivitiesRequest (the list's filter as
 * the gateway resolved it, and ordering; paging ignored), pages ListActivitiesResponses, presented
 * by the gateway as it presents the list. `future` is judged at the organization's now as the job's
 * call context gives it (a test clock's time when asked; else the service's clock when it runs).
 */
export function activityListExport(clock: Clock): ExportSource {
  return {
    kind: 'activities',
    async open(snapshot, { organizationId, params, context }) {
      const request = analyticsV1.ListActivitiesRequest.decode(params);
      const { total, rows } = await exportActivities(snapshot, {
        organizationId,
        filter: activityFilterOf(request.filter),
        ordering: request.page?.ordering ?? '',
        now: orgNow(clock, context),
      });
      const encode = (views: ActivityView[]) =>
        analyticsV1.ListActivitiesResponse.encode({
          count: views.length,
          activities: views.map(activityMessage),
        }).finish();
      return { total, pages: pagesOf(rows, PAGE_ROWS, encode) };
    },
  };
}

/** The account activity list's export ("account_activities"), as the activities'. */
export function accountActivityListExport(clock: Clock): ExportSource {
  return {
    kind: 'account_activities',
    async open(snapshot, { organizationId, params, context }) {
      const request = analyticsV1.ListAccountActivitiesRequest.decode(params);
      const { total, rows } = await exportAccountActivities(snapshot, {
        organizationId,
        filter: accountActivityFilterOf(request.filter),
        ordering: request.page?.ordering ?? '',
        now: orgNow(clock, context),
      });
      const encode = (views: AccountActivityView[]) =>
        analyticsV1.ListAccountActivitiesResponse.encode({
          count: views.length,
          account_activities: views.map(accountActivityMessage),
        }).finish();
      return { total, pages: pagesOf(rows, PAGE_ROWS, encode) };
    },
  };
}
