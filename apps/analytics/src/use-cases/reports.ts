import type { PageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { currencyDecimals, type MoneyDecimal, money } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { orgNow, requireOrganization } from '@billing/runtime';
import {
  catalogNames,
  cohortFacts,
  filteredTotalMrr,
  monthBounds,
  monthEndsSince,
  activityMonths as queryActivityMonths,
  subscriptionFacts,
  subscriptionPoints,
  unfilteredTotalMrr,
} from '../db/report-queries.js';
import { type MrrPoint, monthPoint } from '../domain/mrr-timeline.js';
import {
  type ActivityMonthView,
  type CohortView,
  isUnfiltered,
  type MrrRowView,
  type TotalMrrFilter,
  type TotalMrrView,
} from '../domain/report-views.js';
import { type CohortAccount, retentionCohorts } from '../domain/retention-cohort.js';
import type { AnalyticsDeps } from './deps.js';
import { readSettings } from './organization-settings.js';

export async function totalMrr(
  deps: AnalyticsDeps,
  context: RequestContext,
  filter: TotalMrrFilter,
): Promise<TotalMrrView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  if (isUnfiltered(filter)) return unfilteredTotalMrr(em, organizationId);
  const { base } = await readSettings(em, organizationId);
  return filteredTotalMrr(em, organizationId, base, filter);
}

interface SubscriptionPoint extends MrrPoint {
  quantity: number;
  plan: string;
  terms: string;
}

/** mrr-per-month (gaps.md §8): one row per subscription with MRR at any moment of the month. */
export async function mrrPerMonth(
  deps: AnalyticsDeps,
  context: RequestContext,
  year: number,
  month: number,
  subscription: string | undefined,
): Promise<MrrRowView[]> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const organization = await readSettings(em, organizationId);
  if (!Number.isInteger(year) || year < 1 || year > 9999) throw AppError.invalidField('year', 'Enter a valid year.');
  if (!Number.isInteger(month) || month < 1 || month > 12) throw AppError.invalidField('month', 'Enter a valid month.');
  const { start, next } = await monthBounds(em, year, month, organization.row.time_zone);
  const rows = await subscriptionPoints(em, organizationId, next, subscription);
  const bySubscription = new Map<string, SubscriptionPoint[]>();
  const firstSeq = new Map<string, number>();
  for (const row of rows) {
    if (!firstSeq.has(row.subscription_id)) firstSeq.set(row.subscription_id, Number(row.seq));
    const points = bySubscription.get(row.subscription_id) ?? [];
    points.push({
      date: new Date(row.date),
      mrr: money(row.new_mrr ?? '0'),
      quantity: row.new_quantity ?? 0,
      plan: row.new_plan ?? '',
      terms: row.new_terms ?? '',
    });
    bySubscription.set(row.subscription_id, points);
  }
  // Rows in the order the subscriptions' first activities were recorded: stable from month to month.
  const chosen = [...bySubscription.entries()]
    .flatMap(([id, points]) => {
      const found = monthPoint(points, start, next);
      return found ? [{ id, first: firstSeq.get(id) ?? 0, ...found }] : [];
    })
    .sort((a, b) => a.first - b.first);
  const facts = new Map(
    (
      await subscriptionFacts(
        em,
        organizationId,
        chosen.map((c) => c.id),
      )
    ).map((f) => [f.id, f]),
  );
  const names = await catalogNames(em, organizationId);
  const decimals = currencyDecimals(organization.base);
  return chosen.flatMap(({ id, point, active }) => {
    const fact = facts.get(id);
    if (!fact) return [];
    const revenueGroup = names.revenueGroups.get(point.terms) ?? null;
    return [
      {
        month: start,
        account_uuid: fact.account_id,
        subscription_uuid: id,
        company_name: fact.company_name ?? '',
        legal_country: fact.legal_country ?? '',
        collection_method: fact.collection_method,
        payment_terms: fact.payment_terms,
        next_renewal_date: fact.next_renewal_date ? new Date(fact.next_renewal_date) : null,
        terms_interval_type: fact.interval_type,
        terms_interval_count: fact.interval_count,
        currency: fact.currency,
        quantity: point.quantity,
        plan_name: names.plans.get(point.plan) ?? '',
        plan_uuid: point.plan,
        revenue_group_id: revenueGroup,
        revenue_group_name: revenueGroup,
        mrr: point.mrr.toFixed(decimals),
        active,
      },
    ];
  });
}

/** activity-months: newest first unless ordering is `month`. */
export async function activityMonths(
  deps: AnalyticsDeps,
  context: RequestContext,
  page: PageSpec,
): Promise<{ count: number; months: ActivityMonthView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const organization = await readSettings(em, organizationId);
  const descending = page.ordering.split(',')[0] !== 'month';
  const { count, months } = await queryActivityMonths(
    em,
    organizationId,
    organization.row.time_zone,
    descending,
    page.pageSize,
    (page.page - 1) * page.pageSize,
  );
  const decimals = currencyDecimals(organization.base);
  return {
    count,
    months: months.map((row) => ({
      month: row.month,
      activities: Number(row.activities),
      mrr_change: money(row.mrr_change ?? '0').toFixed(decimals),
    })),
  };
}

/** retention-cohort: oldest cohort first unless ordering is `-cohort`. */
export async function retentionCohort(
  deps: AnalyticsDeps,
  context: RequestContext,
  page: PageSpec,
): Promise<{ count: number; cohorts: CohortView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const organization = await readSettings(em, organizationId);
  const timeZone = organization.row.time_zone;
  const facts = await cohortFacts(em, organizationId, timeZone);
  const accounts = new Map<string, CohortAccount>();
  for (const fact of facts) {
    const account = accounts.get(fact.account_id) ?? { cohort: fact.cohort, points: [] };
    if (fact.date) account.points.push({ date: new Date(fact.date), mrr: money(fact.new_mrr ?? '0') });
    accounts.set(fact.account_id, account);
  }
  const now = orgNow(deps.clock, context);
  const ends = new Map<string, Date[]>();
  for (const cohort of new Set([...accounts.values()].map((a) => a.cohort))) {
    ends.set(cohort, await monthEndsSince(em, cohort, now, timeZone));
  }
  const rows = retentionCohorts([...accounts.values()], (cohort) => ends.get(cohort) ?? []);
  if (page.ordering.split(',')[0] === '-cohort') rows.reverse();
  const decimals = currencyDecimals(organization.base);
  const fixed = (value: InstanceType<typeof MoneyDecimal>) => value.toFixed(decimals);
  return {
    count: rows.length,
    cohorts: rows.slice((page.page - 1) * page.pageSize, page.page * page.pageSize).map((row) => ({
      cohort: row.cohort,
      accounts: row.accounts,
      starting_mrr: fixed(row.starting_mrr),
      periods: row.periods.map((period) => ({ ...period, mrr: fixed(period.mrr) })),
    })),
  };
}
