import type { RequestContext } from '@billing/observability';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { nullable, tagged } from '../shared/representation.js';
import {
  ActivityMonthSchema,
  CohortSchema,
  MrrPerMonthQuery,
  MrrRowSchema,
  TotalMrrSchema,
} from './mrr-report-schemas.js';
import { resolveSubscriptionFilter } from './subscription-list-filter.js';
import { SubscriptionFilters } from './subscription-schemas.js';

const SUBSCRIPTIONS = '/api/v1/subscriptions/';
const TAGS = ['subscriptions'];

/** The path and its underscore twin (gaps.md §2). */
const twins = (name: string) => ({
  path: `${SUBSCRIPTIONS}${name}/`,
  aliases: [`${SUBSCRIPTIONS}${name.replaceAll('-', '_')}/`],
});

/**
 * The MRR reports (api-spec "Subscriptions", gaps.md §8), answered by the analytics service in the
 * organization's base currency. total-mrr takes the subscription list's filters, resolved as for
 * the list (accounts data through the accounts service).
 */
export function mrrReportRoutes(clients: ServiceClients): Route[] {
  const { mrrReports, identity } = clients;
  const timeZone = (context: RequestContext) => async () =>
    context.organizationTimeZone ?? (await identity.call('getOrganization', {})).organization!.time_zone;

  const totalMrr = defineRoute({
    method: 'get',
    ...twins('total-mrr'),
    operationId: 'totalMrr',
    summary: 'Total MRR of the subscriptions the filters match',
    description:
      'total_mrr: active and not_renewing subscriptions now; future_mrr: once every known scheduled start, change and cancellation took effect; pending_manual_renewal_mrr; subscriptions_count: those in total_mrr. Base currency.',
    tags: TAGS,
    query: SubscriptionFilters,
    response: { status: 200, schema: TotalMrrSchema },
    handler: async ({ query, context }) => {
      const filter = (await resolveSubscriptionFilter(clients, query, timeZone(context))) ?? {
        account_in: [],
        account_in_set: true,
      };
      return tagged('total_mrr', await mrrReports.call('totalMrr', { filter }));
    },
  });

  const mrrPerMonth = defineRoute({
    method: 'get',
    ...twins('mrr-per-month'),
    operationId: 'mrrPerMonth',
    summary: 'MRR per subscription in a month',
    description:
      'One row per subscription with MRR at any moment of the month (organization’s time zone): mrr at the month’s last moment, or at its last moment with MRR (active false).',
    tags: TAGS,
    query: MrrPerMonthQuery,
    response: { status: 200, schema: MrrRowSchema.array() },
    handler: async ({ query }) => {
      const { rows } = await mrrReports.call('mrrPerMonth', {
        year: query.year!,
        month: query.month!,
        subscription: query.subscription,
      });
      return rows.map((row) =>
        tagged('mrr_row', {
          ...row,
          month: row.month!.toISOString(),
          payment_terms: nullable(row.payment_terms),
          next_renewal_date: row.next_renewal_date ? row.next_renewal_date.toISOString() : null,
          revenue_group_id: nullable(row.revenue_group_id),
          revenue_group_name: nullable(row.revenue_group_name),
          mrr: Number(row.mrr),
        }),
      );
    },
  });

  const activityMonths = defineListRoute({
    ...twins('activity-months'),
    operationId: 'activityMonths',
    summary: 'Activities and MRR change per month',
    description: 'Each month (organization’s time zone) with activities not deleted; newest first (-month).',
    tags: TAGS,
    item: ActivityMonthSchema,
    ordering: ['month'],
    handler: async ({ page }) => {
      const reply = await mrrReports.call('activityMonths', { page: pageOf(page, '-month') });
      return { count: reply.count, results: reply.months.map((month) => tagged('activity_month', month)) };
    },
  });

  const retentionCohort = defineListRoute({
    ...twins('retention-cohort'),
    operationId: 'retentionCohort',
    summary: 'Retention by cohort of first subscription start',
    description:
      'Accounts grouped by the month of their first subscription start; period k: those with MRR at the end of the k-th month after (0 = the cohort month). Oldest cohort first (cohort).',
    tags: TAGS,
    item: CohortSchema,
    ordering: ['cohort'],
    handler: async ({ page }) => {
      const reply = await mrrReports.call('retentionCohort', { page: pageOf(page, 'cohort') });
      return { count: reply.count, results: reply.cohorts.map((cohort) => tagged('retention_cohort', cohort)) };
    },
  });

  return [totalMrr, mrrPerMonth, activityMonths, retentionCohort];
}
