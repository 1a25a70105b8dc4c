import { type CurrencyCode, currencyDecimals, money } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TotalMrrFilter, TotalMrrView } from '../domain/report-views.js';
import { INVOICE_ACTIVITY_TYPES } from './account-activity-store.js';
import { SqlWhere } from './sql-where.js';

const RANGES: Array<[keyof TotalMrrFilter, keyof TotalMrrFilter, string]> = [
  ['start_date_gte', 'start_date_lte', 'start_date'],
  ['next_renewal_date_gte', 'next_renewal_date_lte', 'next_renewal_date'],
  ['end_date_gte', 'end_date_lte', 'end_date'],
  ['last_modified_date_gte', 'last_modified_date_lte', 'last_modified_date'],
];

function totalMrrWhere(organizationId: string, filter: TotalMrrFilter): SqlWhere {
  const where = new SqlWhere().add('organization_id = ?', organizationId);
  where.when(filter.plan, 'plan_id = ?');
  where.when(filter.terms, 'terms_id = ?');
  where.when(filter.status, 'status = ?');
  where.when(filter.collection_method, 'collection_method = ?');
  where.when(filter.set_to_expire, "(status = 'not_renewing') = ?");
  where.when(filter.has_custom_price, 'has_custom_price = ?');
  if (filter.account_in !== undefined) {
    if (filter.account_in.length === 0) where.add('false');
    else where.whenAny(filter.account_in, 'account_id');
  }
  for (const [gte, lte, column] of RANGES) {
    where.when(filter[gte] as Date | undefined, `${column} >= ?`);
    where.when(filter[lte] as Date | undefined, `${column} <= ?`);
  }
  return where;
}

type TotalsRow = {
  total_mrr: string | null;
  future_mrr: string | null;
  pending_mrr: string | null;
  count: string | number | null;
};

function totalMrrView(base: CurrencyCode, row: TotalsRow | undefined): TotalMrrView {
  const decimals = currencyDecimals(base);
  const amount = (value: string | null | undefined) => money(value ?? '0').toFixed(decimals);
  return {
    total_mrr: amount(row?.total_mrr),
    future_mrr: amount(row?.future_mrr),
    pending_manual_renewal_mrr: amount(row?.pending_mrr),
    subscriptions_count: Number(row?.count ?? 0),
  };
}

/**
 * total-mrr without filters: the organization's maintained totals (one row, kept in step by every
 * subscription change) and its base currency, in one statement: the answer's cost does not grow
 * with the subscriptions. An organization analytics has not heard of reads as DKK zeros (readSettings).
 */
export async function unfilteredTotalMrr(em: EntityManager, organizationId: string): Promise<TotalMrrView> {
  const [row] = await em.execute<Array<TotalsRow & { base_currency: string | null }>>(
    `select o.base_currency, t.total_mrr, t.future_mrr, t.pending_mrr, t.subscriptions_count as count
       from (select ?::uuid as id) asked
       left join organization o on o.id = asked.id
       left join mrr_totals t on t.organization_id = asked.id`,
    [organizationId],
  );
  return totalMrrView((row?.base_currency ?? 'DKK') as CurrencyCode, row);
}

/**
 * total-mrr with filters: the sum over the matching subscriptions' MRR rows (indexed by
 * organization and status, account, plan, terms).
 */
export async function filteredTotalMrr(
  em: EntityManager,
  organizationId: string,
  base: CurrencyCode,
  filter: TotalMrrFilter,
): Promise<TotalMrrView> {
  const where = totalMrrWhere(organizationId, filter);
  const [row] = await em.execute<TotalsRow[]>(
    `select sum(total_mrr) as total_mrr, sum(future_mrr) as future_mrr, sum(pending_mrr) as pending_mrr,
            count(*) filter (where status in ('active', 'not_renewing')) as count
       from subscription_mrr ${where.sql}`,
    where.params,
  );
  return totalMrrView(base, row);
}

/** The first instant of the month and of the next one, on the organization's wall clock. */
export async function monthBounds(
  em: EntityManager,
  year: number,
  month: number,
  timeZone: string,
): Promise<{ start: Date; next: Date }> {
  const [row] = await em.execute<Array<{ start: Date; next: Date }>>(
    `select (make_date(?, ?, 1)::timestamp at time zone ?) as start,
            ((make_date(?, ?, 1) + interval '1 month')::timestamp at time zone ?) as next`,
    [year, month, timeZone, year, month, timeZone],
  );
  return { start: new Date(row!.start), next: new Date(row!.next) };
}

export interface SubscriptionPointRow {
  subscription_id: string;
  seq: string | number;
  date: Date;
  new_mrr: string | null;
  new_quantity: number | null;
  new_plan: string | null;
  new_terms: string | null;
}

/** The MRR movements (not deleted) of the organization's subscriptions up to `before`, in time order. */
export function subscriptionPoints(
  em: EntityManager,
  organizationId: string,
  before: Date,
  subscription: string | undefined,
): Promise<SubscriptionPointRow[]> {
  const where = new SqlWhere()
    .add('organization_id = ?', organizationId)
    .add('subscription_id is not null')
    .add('date < ?', before)
    .add('not (deleted or dropped)')
    .add(`type not in (${INVOICE_ACTIVITY_TYPES.map(() => '?').join(', ')})`, ...INVOICE_ACTIVITY_TYPES)
    .when(subscription, 'subscription_id = ?');
  return em.execute<SubscriptionPointRow[]>(
    `select subscription_id, seq, date, new_mrr, new_quantity, new_plan, new_terms from activity ${where.sql}
      order by subscription_id, date, seq`,
    where.params,
  );
}

export interface MrrRowFacts {
  id: string;
  account_id: string;
  company_name: string | null;
  legal_country: string | null;
  collection_method: string;
  payment_terms: number | null;
  next_renewal_date: Date | null;
  interval_type: string;
  interval_count: number;
  currency: string;
}

/** The subscriptions' and their accounts' columns of MRR rows. */
export function subscriptionFacts(em: EntityManager, organizationId: string, ids: string[]): Promise<MrrRowFacts[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return em.execute<MrrRowFacts[]>(
    `select s.id, s.account_id, a.company_name, a.legal_country, s.collection_method, s.payment_terms,
            s.next_renewal_date, s.interval_type, s.interval_count, s.currency
       from subscription_mrr s left join account a on a.id = s.account_id
      where s.organization_id = ? and s.id in (${ids.map(() => '?').join(', ')})`,
    [organizationId, ...ids],
  );
}

/** Plans and terms by id: names and revenue groups. */
export async function catalogNames(
  em: EntityManager,
  organizationId: string,
): Promise<{ plans: Map<string, string>; revenueGroups: Map<string, string | null> }> {
  const plans = await em.execute<Array<{ id: string; name: string }>>(
    'select id, name from plan where organization_id = ?',
    [organizationId],
  );
  const terms = await em.execute<Array<{ id: string; revenue_group: string | null }>>(
    'select id, revenue_group from plan_terms where organization_id = ?',
    [organizationId],
  );
  return {
    plans: new Map(plans.map((row) => [row.id, row.name])),
    revenueGroups: new Map(terms.map((row) => [row.id, row.revenue_group])),
  };
}

/** activity-months: per month (organization's time zone) with activities not deleted, their count and MRR change. */
export async function activityMonths(
  em: EntityManager,
  organizationId: string,
  timeZone: string,
  descending: boolean,
  limit: number,
  offset: number,
): Promise<{ count: number; months: Array<{ month: string; activities: string; mrr_change: string | null }> }> {
  const grouped = `select to_char(date at time zone ?, 'YYYY-MM') as month, count(*) as activities,
                          sum(mrr_change) as mrr_change
                     from activity where organization_id = ? and not (deleted or dropped) group by 1`;
  const [counted] = await em.execute<Array<{ count: string }>>(`select count(*) as count from (${grouped}) m`, [
    timeZone,
    organizationId,
  ]);
  const months = await em.execute<Array<{ month: string; activities: string; mrr_change: string | null }>>(
    `${grouped} order by 1 ${descending ? 'desc' : 'asc'} limit ? offset ?`,
    [timeZone, organizationId, limit, offset],
  );
  return { count: Number(counted?.count ?? 0), months };
}

/** Every account's first subscription start month and its account-activity MRR points (not deleted). */
export async function cohortFacts(
  em: EntityManager,
  organizationId: string,
  timeZone: string,
): Promise<Array<{ account_id: string; cohort: string; date: Date | null; new_mrr: string | null }>> {
  return em.execute(
    `select f.account_id, f.cohort, x.date, x.new_mrr
       from (select account_id, to_char(min(original_start_date) at time zone ?, 'YYYY-MM') as cohort
               from subscription_mrr where organization_id = ? and original_start_date is not null
              group by account_id) f
       left join account_activity x
         on x.account_id = f.account_id and x.organization_id = ? and not (x.deleted or x.dropped)
      order by f.account_id, x.date, x.seq`,
    [timeZone, organizationId, organizationId],
  );
}

/** The last moments of the months from `cohort` (YYYY-MM) to the one containing `now`, on the wall clock. */
export async function monthEndsSince(em: EntityManager, cohort: string, now: Date, timeZone: string): Promise<Date[]> {
  const rows = await em.execute<Array<{ end: Date }>>(
    `select ((m + interval '1 month')::timestamp at time zone ?) - interval '1 millisecond' as end
       from generate_series(to_date(?, 'YYYY-MM'), date_trunc('month', (?::timestamptz) at time zone ?), interval '1 month') m`,
    [timeZone, cohort, now, timeZone],
  );
  return rows.map((row) => new Date(row.end));
}
