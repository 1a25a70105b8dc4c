import type { ExportSnapshot, ReadRow } from '@billing/exports';
import type { EntityManager } from '@mikro-orm/postgresql';
import { streamAccountActivityViews } from '../db/account-activity-queries.js';
import { streamActivityViews } from '../db/activity-queries.js';
import type {
  AccountActivityListFilter,
  AccountActivityView,
  ActivityListFilter,
  ActivityView,
} from '../domain/activity-view.js';
import { readSettings } from './organization-settings.js';

/** What an export of a list reads: the organization, the list's filter and ordering, and its now. */
export interface ListExport<Filter> {
  organizationId: string;
  filter: Filter;
  ordering: string;
  /** The organization's now when the job runs (`future`). */
  now: Date;
}

async function* numbered<T>(views: AsyncIterable<T>): AsyncIterable<ReadRow<T>> {
  let read = 0;
  for await (const view of views) yield { row: view, read: ++read };
}

const baseOf = async (em: EntityManager, organizationId: string) => (await readSettings(em, organizationId)).base;

/** The activity list's every matching row, as the list shows them (gaps.md §9), read with a cursor. */
export async function exportActivities(
  snapshot: ExportSnapshot,
  request: ListExport<ActivityListFilter>,
): Promise<{ total: number; rows: AsyncIterable<ReadRow<ActivityView>> }> {
  const base = await baseOf(snapshot.em, request.organizationId);
  const { count, views } = await streamActivityViews(
    snapshot,
    request.organizationId,
    base,
    request.filter,
    request.ordering,
    request.now,
  );
  return { total: count, rows: numbered(views) };
}

/** The account activity list's every matching row, read with a cursor. */
export async function exportAccountActivities(
  snapshot: ExportSnapshot,
  request: ListExport<AccountActivityListFilter>,
): Promise<{ total: number; rows: AsyncIterable<ReadRow<AccountActivityView>> }> {
  const base = await baseOf(snapshot.em, request.organizationId);
  const { count, views } = await streamAccountActivityViews(
    snapshot,
    request.organizationId,
    base,
    request.filter,
    request.ordering,
    request.now,
  );
  return { total: count, rows: numbered(views) };
}
