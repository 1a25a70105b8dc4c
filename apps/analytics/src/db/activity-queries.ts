import { type PageSpec, resolveOrdering } from '@billing/domain-kit';
import type { ExportSnapshot } from '@billing/exports';
import { type CurrencyCode, currencyDecimals, formatExact, money } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActivityListFilter, ActivityView } from '../domain/activity-view.js';
import { SqlWhere } from './sql-where.js';

/** Orderable fields of the activity list (REST name → column); ties keep the recording order. */
export const ACTIVITY_ORDERING: Readonly<Record<string, string>> = {
  date: 'a.date',
  created_date: 'a.created_date',
  updated_date: 'a.updated_date',
  mrr_change: 'a.mrr_change',
  type: 'a.type',
};
export const DEFAULT_ACTIVITY_ORDERING = '-date';

const VIEW_COLUMNS = `
         a.*, coalesce(acc.code, '') as account_code, coalesce(acc.company_name, '') as company_name,
         coalesce(acc.ean_invoicing, false) as ean_invoicing,
         ot.code as old_terms_name, nt.code as new_terms_name, op.name as old_plan_name, np.name as new_plan_name`;
const VIEW_FROM = `
    from activity a
    left join account acc on acc.id = a.account_id
    left join plan_terms ot on ot.id = a.old_terms
    left join plan_terms nt on nt.id = a.new_terms
    left join plan op on op.id = a.old_plan
    left join plan np on np.id = a.new_plan`;
const SELECT = `select ${VIEW_COLUMNS} ${VIEW_FROM}`;

/** An activity's row joined as VIEW_FROM joins it (what the activity queries read). */
export interface ActivityQueryRow {
  id: string;
  account_id: string;
  account_code: string;
  company_name: string;
  ean_invoicing: boolean;
  subscription_id: string | null;
  invoice_id: string | null;
  date: Date;
  created_date: Date;
  updated_date: Date;
  type: string;
  is_manual: boolean;
  is_churn: boolean;
  deleted: boolean;
  dropped: boolean;
  old_currency: string | null;
  new_currency: string | null;
  old_mrr_in_subscription_currency: string | null;
  new_mrr_in_subscription_currency: string | null;
  old_mrr: string | null;
  new_mrr: string | null;
  mrr_change: string | null;
  old_quantity: number | null;
  new_quantity: number | null;
  old_terms: string | null;
  new_terms: string | null;
  old_terms_name: string | null;
  new_terms_name: string | null;
  old_plan: string | null;
  new_plan: string | null;
  old_plan_name: string | null;
  new_plan_name: string | null;
}

const exact = (value: string | null) => (value === null ? null : formatExact(money(value)));

/** An activity row as the API shows it, its amounts in the organization's base currency. */
export function viewOf(row: ActivityQueryRow, base: CurrencyCode): ActivityView {
  const decimals = currencyDecimals(base);
  const inBase = (value: string | null) => (value === null ? null : money(value).toFixed(decimals));
  const quantityChange =
    row.old_quantity === null && row.new_quantity === null
      ? null
      : String((row.new_quantity ?? 0) - (row.old_quantity ?? 0));
  return {
    uuid: row.id,
    account_uuid: row.account_id,
    account_code: row.account_code,
    company_name: row.company_name,
    subscription: row.subscription_id,
    invoice: row.invoice_id,
    date: new Date(row.date),
    created_date: new Date(row.created_date),
    updated_date: new Date(row.updated_date),
    type: row.type,
    is_manual: row.is_manual,
    is_churn: row.is_churn,
    deleted: row.deleted || row.dropped,
    ean_invoice: row.ean_invoicing,
    old_currency: row.old_currency,
    new_currency: row.new_currency,
    old_mrr_in_subscription_currency: exact(row.old_mrr_in_subscription_currency),
    new_mrr_in_subscription_currency: exact(row.new_mrr_in_subscription_currency),
    old_mrr: inBase(row.old_mrr),
    new_mrr: inBase(row.new_mrr),
    mrr_change: inBase(row.mrr_change),
    quantity_change: quantityChange,
    old_quantity: row.old_quantity,
    new_quantity: row.new_quantity,
    old_terms: row.old_terms,
    new_terms: row.new_terms,
    old_terms_name: row.old_terms_name,
    new_terms_name: row.new_terms_name,
    old_plan: row.old_plan,
    new_plan: row.new_plan,
    old_plan_name: row.old_plan_name,
    new_plan_name: row.new_plan_name,
  };
}

const MRR_CHANGE = {
  increase: 'a.mrr_change > 0',
  decrease: 'a.mrr_change < 0',
  none: '(a.mrr_change = 0 or a.mrr_change is null)',
} as const;

function whereOf(organizationId: string, filter: ActivityListFilter, now: Date): SqlWhere {
  const where = new SqlWhere().add('a.organization_id = ?', organizationId);
  where.when(
    filter.account,
    'a.account_id in (select id from account where organization_id = ? and code = ?)',
    (code) => [organizationId, code],
  );
  where.when(filter.uuid, 'a.id = ?');
  where.when(filter.subscription_uuid, 'a.subscription_id = ?');
  where.whenAny(filter.types, 'a.type');
  where.whenAny(filter.activity_types, 'a.type');
  if (filter.mrr_change_type) where.add(MRR_CHANGE[filter.mrr_change_type as keyof typeof MRR_CHANGE] ?? 'false');
  where.when(filter.is_manual, 'a.is_manual = ?');
  where.add(filter.deleted ? '(a.deleted or a.dropped)' : 'not (a.deleted or a.dropped)');
  if (filter.future !== undefined) where.add(filter.future ? 'a.date > ?' : 'a.date <= ?', now);
  where.when(filter.created_date_gte, 'a.created_date >= ?');
  where.when(filter.created_date_lte, 'a.created_date <= ?');
  where.when(filter.updated_date_gte, 'a.updated_date >= ?');
  where.when(filter.updated_date_lte, 'a.updated_date <= ?');
  where.when(filter.date_gte, 'a.date >= ?');
  where.when(filter.date_lte, 'a.date <= ?');
  return where;
}

/** One page of the organization's activities matching the filter, and how many match. */
export async function listActivityViews(
  em: EntityManager,
  organizationId: string,
  base: CurrencyCode,
  filter: ActivityListFilter,
  page: PageSpec,
  now: Date,
): Promise<{ count: number; views: ActivityView[] }> {
  const where = whereOf(organizationId, filter, now);
  const { column, direction } = resolveOrdering(page.ordering, ACTIVITY_ORDERING, DEFAULT_ACTIVITY_ORDERING);
  const [counted] = await em.execute<Array<{ count: string }>>(
    `select count(*) as count from activity a ${where.sql}`,
    where.params,
  );
  const rows = await em.execute<ActivityQueryRow[]>(
    `${SELECT} ${where.sql} order by ${column} ${direction} nulls last, a.seq ${direction} limit ? offset ?`,
    [...where.params, page.pageSize, (page.page - 1) * page.pageSize],
  );
  return { count: Number(counted?.count ?? 0), views: rows.map((row) => viewOf(row, base)) };
}

/** One activity of the organization (deleted ones too), or null. */
export async function findActivityView(
  em: EntityManager,
  organizationId: string,
  base: CurrencyCode,
  uuid: string,
): Promise<ActivityView | null> {
  const [row] = await em.execute<ActivityQueryRow[]>(`${SELECT} where a.organization_id = ? and a.id = ?`, [
    organizationId,
    uuid,
  ]);
  return row ? viewOf(row, base) : null;
}

/** A plan an activity.created embeds (old_plan / new_plan): one of the organization analytics has a code for. */
export interface EmbeddedPlanRow {
  id: string;
  name: string;
  code: string;
  collect_vat: boolean;
  vat_type: string;
}

/**
 * Every activity of the organization matching the filter, in the list's order, for an export:
 * read with a cursor in the export's snapshot (never the whole set at once), and how many match.
 */
export async function streamActivityViews(
  snapshot: ExportSnapshot,
  organizationId: string,
  base: CurrencyCode,
  filter: ActivityListFilter,
  ordering: string,
  now: Date,
): Promise<{ count: number; views: AsyncIterable<ActivityView> }> {
  const where = whereOf(organizationId, filter, now);
  const { column, direction } = resolveOrdering(ordering, ACTIVITY_ORDERING, DEFAULT_ACTIVITY_ORDERING);
  const [counted] = await snapshot.em.execute<Array<{ count: string }>>(
    `select count(*) as count from activity a ${where.sql}`,
    where.params,
  );
  const rows = snapshot.stream({
    sql: `${SELECT} ${where.sql} order by ${column} ${direction} nulls last, a.seq ${direction}`,
    params: where.params,
  });
  async function* views() {
    for await (const row of rows) yield viewOf(row as unknown as ActivityQueryRow, base);
  }
  return { count: Number(counted?.count ?? 0), views: views() };
}

/** The plans an activity embeds (old_plan / new_plan): those of the organization analytics has a code for. */
export async function embeddedPlans(
  em: EntityManager,
  organizationId: string,
  planIds: readonly string[],
): Promise<EmbeddedPlanRow[]> {
  if (planIds.length === 0) return [];
  return em.execute(
    `select id, name, code, collect_vat, vat_type from plan
      where organization_id = ? and code is not null and id in (${planIds.map(() => '?').join(', ')})`,
    [organizationId, ...planIds],
  );
}

/** The next value of the activities' sequence, taken (not read): every activity recorded later lies above it. */
export async function nextActivitySeq(em: EntityManager): Promise<number> {
  const [row] = await em.execute<Array<{ mark: string }>>(
    `select nextval(pg_get_serial_sequence('activity', 'seq')) as mark`,
  );
  return Number(row!.mark);
}

/** The organization's activities recorded after `mark`, oldest first, leaving out those dropped as they were made. */
export async function activityIdsRecordedSince(
  em: EntityManager,
  organizationId: string,
  mark: number,
): Promise<string[]> {
  const rows = await em.execute<Array<{ id: string }>>(
    'select id from activity where seq > ? and organization_id = ? and not (deleted or dropped) order by seq',
    [mark, organizationId],
  );
  return rows.map((row) => row.id);
}
