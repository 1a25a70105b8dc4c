import type { analyticsV1 } from '@billing/proto';
import { instantRange } from '../../http/index.js';
import type { AccountActivityQuery, ActivityQuery } from './activity-schemas.js';

/** `__org_tz_` bounds are days on the organization's wall clock: its time zone is read only when one is given. */
const hasOrgTzBound = (query: Record<string, unknown>): boolean =>
  Object.entries(query).some(([name, value]) => name.includes('__org_tz_') && value !== undefined);

type TimeZone = () => Promise<string>;

/**
 * The activity list's query as the analytics service takes it. `since` (deprecated) is
 * created_date__gte, or activity_date__gte with use_activity_date=true (both bounds hold);
 * date bounds are whole days (UTC, or the organization's with __org_tz_), or exact date-times.
 */
export async function activityFilterOf(query: ActivityQuery, timeZone: TimeZone): Promise<analyticsV1.ActivityFilter> {
  const zone = hasOrgTzBound(query) ? await timeZone() : 'UTC';
  const created = instantRange(query, 'created_date', zone);
  const date = instantRange(query, 'activity_date', zone);
  if (query.since !== undefined) {
    const target = query.use_activity_date ? date : created;
    const since = instantRange({ since__gte: query.since }, 'since').gte!;
    if (!target.gte || since > target.gte) target.gte = since;
  }
  const updated = instantRange(query, 'updated_date');
  return {
    account: query.account,
    uuid: query.uuid,
    subscription_uuid: query.subscription_uuid,
    types: query.type ?? [],
    activity_types: query.activity_type ?? [],
    mrr_change_type: query.mrr_change_type,
    is_manual: query.is_manual,
    deleted: query.deleted,
    future: query.future,
    created_date_gte: created.gte,
    created_date_lte: created.lte,
    updated_date_gte: updated.gte,
    updated_date_lte: updated.lte,
    date_gte: date.gte,
    date_lte: date.lte,
  };
}

export async function accountActivityFilterOf(
  query: AccountActivityQuery,
  timeZone: TimeZone,
): Promise<analyticsV1.AccountActivityFilter> {
  const zone = hasOrgTzBound(query) ? await timeZone() : 'UTC';
  const created = instantRange(query, 'created_date', zone);
  const date = instantRange(query, 'date', zone);
  const firstStart = instantRange(query, 'account_first_subscription_start_date', zone);
  return {
    account: query.account,
    uuid: query.uuid,
    subscription_uuid: query.subscription_uuid,
    is_manual: query.is_manual,
    future: query.future,
    deleted: query.deleted,
    types: query.type ?? [],
    churn_reason: query.churn_reason,
    created_date_gte: created.gte,
    created_date_lte: created.lte,
    date_gte: date.gte,
    date_lte: date.lte,
    first_start_gte: firstStart.gte,
    first_start_lte: firstStart.lte,
  };
}
