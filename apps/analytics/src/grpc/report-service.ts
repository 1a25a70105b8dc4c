import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { analyticsV1, type subscriptionsV1 } from '@billing/proto';
import type { MrrRowView, TotalMrrFilter } from '../domain/report-views.js';
import type { AnalyticsDeps } from '../use-cases/deps.js';
import { activityMonths, mrrPerMonth, retentionCohort, totalMrr } from '../use-cases/reports.js';

function totalMrrFilterOf(filter: subscriptionsV1.SubscriptionFilter | undefined): TotalMrrFilter {
  return {
    plan: filter?.plan,
    terms: filter?.terms,
    status: filter?.status,
    collection_method: filter?.collection_method,
    set_to_expire: filter?.set_to_expire,
    has_custom_price: filter?.has_custom_price,
    account_in: filter?.account_in_set ? filter.account_in : undefined,
    start_date_gte: filter?.start_date_gte,
    start_date_lte: filter?.start_date_lte,
    next_renewal_date_gte: filter?.next_renewal_date_gte,
    next_renewal_date_lte: filter?.next_renewal_date_lte,
    end_date_gte: filter?.end_date_gte,
    end_date_lte: filter?.end_date_lte,
    last_modified_date_gte: filter?.last_modified_date_gte,
    last_modified_date_lte: filter?.last_modified_date_lte,
  };
}

const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

function mrrRowMessage(row: MrrRowView): analyticsV1.MrrRow {
  return {
    ...row,
    payment_terms: opt(row.payment_terms),
    next_renewal_date: opt(row.next_renewal_date),
    revenue_group_id: opt(row.revenue_group_id),
    revenue_group_name: opt(row.revenue_group_name),
  };
}

/** Transport only: decode, call the use case, encode. */
export function reportService(deps: AnalyticsDeps): GrpcService {
  return unaryService(analyticsV1.MrrReportServiceService, {
    totalMrr: async (request, context) => totalMrr(deps, context, totalMrrFilterOf(request.filter)),
    mrrPerMonth: async (request, context) => ({
      rows: (await mrrPerMonth(deps, context, request.year, request.month, request.subscription)).map(mrrRowMessage),
    }),
    activityMonths: async (request, context) => activityMonths(deps, context, pageSpec(request.page)),
    retentionCohort: async (request, context) => retentionCohort(deps, context, pageSpec(request.page)),
  });
}
