import { type PageSpec, resolveOrdering } from '@billing/domain-kit';
import type { ExportSnapshot } from '@billing/exports';
import { type CurrencyCode, currencyDecimals, money } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountActivityListFilter, AccountActivityView } from '../domain/activity-view.js';
import { SqlWhere } from './sql-where.js';

export const ACCOUNT_ACTIVITY_ORDERING: Readonly<Record<string, string>> = {
  date: 'x.date',
  created_date: 'x.created_date',
  mrr_change: 'x.mrr_change',
  type: 'x.type',
  account_first_subscription_start_date: 'x.account_first_subscription_start_date',
};
export const DEFAULT_ACCOUNT_ACTIVITY_ORDERING = '-date';

/** Derived rows show the account's current code and name; manual ones what was written. */
const SELECT = `
  select x.*, coalesce(x.account_code, acc.code, '') as code, coalesce(x.company_name, acc.company_name, '') as name
    from account_activity x
    left join account acc on acc.id = x.account_id`;

interface AccountActivityQueryRow {
  id: string;
  account_id: string;
  code: string;
  name: string;
  type: string;
  mrr_change: string;
  new_mrr: string | null;
  old_mrr: string | null;
  created_date: Date;
  date: Date;
  subscription: string | null;
  is_manual: boolean;
  deleted: boolean;
  dropped: boolean;
  churn_reason: string;
  account_first_subscription_start_date: Date | null;
}

function viewOf(row: AccountActivityQueryRow, base: CurrencyCode): AccountActivityView {
  const decimals = currencyDecimals(base);
  const inBase = (value: string | null) => (value === null ? null : money(value).toFixed(decimals));
  return {
    uuid: row.id,
    account_uuid: row.account_id,
    account_code: row.code,
    company_name: row.name,
    type: row.type,
    mrr_change: money(row.mrr_change).toFixed(decimals),
    new_mrr: inBase(row.new_mrr),
    old_mrr: inBase(row.old_mrr),
    created_date: new Date(row.created_date),
    date: new Date(row.date),
    subscription: row.subscription,
    is_manual: row.is_manual,
    deleted: row.deleted || row.dropped,
    churn_reason: row.churn_reason,
    account_first_subscription_start_date: row.account_first_subscription_start_date
      ? new Date(row.account_first_subscription_start_date)
      : null,
  };
}

function whereOf(organizationId: string, filter: AccountActivityListFilter, now: Date): SqlWhere {
  const where = new SqlWhere().add('x.organization_id = ?', organizationId);
  where.when(
    filter.account,
    '(x.account_code = ? or (x.account_code is null and x.account_id in (select id from account where organization_id = ? and code = ?)))',
    (code) => [code, organizationId, code],
  );
  where.when(filter.uuid, 'x.id = ?');
  where.when(filter.subscription_uuid, 'x.subscription = ?');
  where.when(filter.is_manual, 'x.is_manual = ?');
  where.add(filter.deleted ? '(x.deleted or x.dropped)' : 'not (x.deleted or x.dropped)');
  if (filter.future !== undefined) where.add(filter.future ? 'x.date > ?' : 'x.date <= ?', now);
  where.whenAny(filter.types, 'x.type');
  where.when(filter.churn_reason, 'x.churn_reason = ?');
  where.when(filter.created_date_gte, 'x.created_date >= ?');
  where.when(filter.created_date_lte, 'x.created_date <= ?');
  where.when(filter.date_gte, 'x.date >= ?');
  where.when(filter.date_lte, 'x.date <= ?');
  where.when(filter.first_start_gte, 'x.account_first_subscription_start_date >= ?');
  where.when(filter.first_start_lte, 'x.account_first_subscription_start_date <= ?');
  return where;
}

export async function listAccountActivityViews(
  em: EntityManager,
  organizationId: string,
  base: CurrencyCode,
  filter: AccountActivityListFilter,
  page: PageSpec,
  now: Date,
): Promise<{ count: number; views: AccountActivityView[] }> {
  const where = whereOf(organizationId, filter, now);
  const { column, direction } = resolveOrdering(
    page.ordering,
    ACCOUNT_ACTIVITY_ORDERING,
    DEFAULT_ACCOUNT_ACTIVITY_ORDERING,
  );
  const [counted] = await em.execute<Array<{ count: string }>>(
    `select count(*) as count from account_activity x ${where.sql}`,
    where.params,
  );
  const rows = await em.execute<AccountActivityQueryRow[]>(
    `${SELECT} ${where.sql} order by ${column} ${direction} nulls last, x.seq ${direction} limit ? offset ?`,
    [...where.params, page.pageSize, (page.page - 1) * page.pageSize],
  );
  return { count: Number(counted?.count ?? 0), views: rows.map((row) => viewOf(row, base)) };
}

export async function findAccountActivityView(
  em: EntityManager,
  organizationId: string,
  base: CurrencyCode,
  uuid: string,
): Promise<AccountActivityView | null> {
  const [row] = await em.execute<AccountActivityQueryRow[]>(`${SELECT} where x.organization_id = ? and x.id = ?`, [
    organizationId,
    uuid,
  ]);
  return row ? viewOf(row, base) : null;
}

/** The account activity list's every matching row, for an export: a cursor in the export's snapshot. */
export async function streamAccountActivityViews(
  snapshot: ExportSnapshot,
  organizationId: string,
  base: CurrencyCode,
  filter: AccountActivityListFilter,
  ordering: string,
  now: Date,
): Promise<{ count: number; views: AsyncIterable<AccountActivityView> }> {
  const where = whereOf(organizationId, filter, now);
  const { column, direction } = resolveOrdering(ordering, ACCOUNT_ACTIVITY_ORDERING, DEFAULT_ACCOUNT_ACTIVITY_ORDERING);
  const [counted] = await snapshot.em.execute<Array<{ count: string }>>(
    `select count(*) as count from account_activity x ${where.sql}`,
    where.params,
  );
  const rows = snapshot.stream({
    sql: `${SELECT} ${where.sql} order by ${column} ${direction} nulls last, x.seq ${direction}`,
    params: where.params,
  });
  async function* views() {
    for await (const row of rows) yield viewOf(row as unknown as AccountActivityQueryRow, base);
  }
  return { count: Number(counted?.count ?? 0), views: views() };
}
