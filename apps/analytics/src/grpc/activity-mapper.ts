import type { analyticsV1 } from '@billing/proto';
import type {
  AccountActivityListFilter,
  AccountActivityView,
  ActivityListFilter,
  ActivityView,
} from '../domain/activity-view.js';
import type { ManualAccountActivityInput } from '../use-cases/account-activities.js';
import type { ManualActivityInput } from '../use-cases/activities.js';

const opt = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function activityMessage(view: ActivityView): analyticsV1.Activity {
  return {
    uuid: view.uuid,
    account_uuid: view.account_uuid,
    account_code: view.account_code,
    company_name: view.company_name,
    subscription: opt(view.subscription),
    invoice: opt(view.invoice),
    date: view.date,
    created_date: view.created_date,
    updated_date: view.updated_date,
    type: view.type,
    is_manual: view.is_manual,
    is_churn: view.is_churn,
    deleted: view.deleted,
    ean_invoice: view.ean_invoice,
    old_currency: opt(view.old_currency),
    new_currency: opt(view.new_currency),
    old_mrr_in_subscription_currency: opt(view.old_mrr_in_subscription_currency),
    new_mrr_in_subscription_currency: opt(view.new_mrr_in_subscription_currency),
    old_mrr: opt(view.old_mrr),
    new_mrr: opt(view.new_mrr),
    mrr_change: opt(view.mrr_change),
    quantity_change: opt(view.quantity_change),
    old_quantity: opt(view.old_quantity),
    new_quantity: opt(view.new_quantity),
    old_terms: opt(view.old_terms),
    new_terms: opt(view.new_terms),
    old_terms_name: opt(view.old_terms_name),
    new_terms_name: opt(view.new_terms_name),
    old_plan: opt(view.old_plan),
    new_plan: opt(view.new_plan),
    old_plan_name: opt(view.old_plan_name),
    new_plan_name: opt(view.new_plan_name),
  };
}

export function accountActivityMessage(view: AccountActivityView): analyticsV1.AccountActivity {
  return {
    uuid: view.uuid,
    account_uuid: view.account_uuid,
    account_code: view.account_code,
    company_name: view.company_name,
    type: view.type,
    mrr_change: view.mrr_change,
    new_mrr: opt(view.new_mrr),
    old_mrr: opt(view.old_mrr),
    created_date: view.created_date,
    date: view.date,
    subscription: opt(view.subscription),
    is_manual: view.is_manual,
    deleted: view.deleted,
    churn_reason: view.churn_reason,
    account_first_subscription_start_date: opt(view.account_first_subscription_start_date),
  };
}

export function activityFilterOf(filter: analyticsV1.ActivityFilter | undefined): ActivityListFilter {
  return {
    account: filter?.account,
    uuid: filter?.uuid,
    subscription_uuid: filter?.subscription_uuid,
    types: filter?.types ?? [],
    activity_types: filter?.activity_types ?? [],
    mrr_change_type: filter?.mrr_change_type,
    is_manual: filter?.is_manual,
    deleted: filter?.deleted,
    future: filter?.future,
    created_date_gte: filter?.created_date_gte,
    created_date_lte: filter?.created_date_lte,
    updated_date_gte: filter?.updated_date_gte,
    updated_date_lte: filter?.updated_date_lte,
    date_gte: filter?.date_gte,
    date_lte: filter?.date_lte,
  };
}

export function accountActivityFilterOf(
  filter: analyticsV1.AccountActivityFilter | undefined,
): AccountActivityListFilter {
  return {
    account: filter?.account,
    uuid: filter?.uuid,
    subscription_uuid: filter?.subscription_uuid,
    is_manual: filter?.is_manual,
    future: filter?.future,
    deleted: filter?.deleted,
    types: filter?.types ?? [],
    churn_reason: filter?.churn_reason,
    created_date_gte: filter?.created_date_gte,
    created_date_lte: filter?.created_date_lte,
    date_gte: filter?.date_gte,
    date_lte: filter?.date_lte,
    first_start_gte: filter?.first_start_gte,
    first_start_lte: filter?.first_start_lte,
  };
}

/** A field the client sent (null included) or, without a list, any field set. */
const sent = (present: readonly string[], field: string, value: unknown) =>
  present.includes(field) || value !== undefined;

/** The fields an update sends; a sent null stays null, an absent field undefined (kept). */
export function activityChangesOf(
  input: analyticsV1.ActivityInput | undefined,
  present: readonly string[],
): Partial<ManualActivityInput> {
  const changes: Partial<ManualActivityInput> = {};
  if (sent(present, 'subscription', input?.subscription)) changes.subscription = input?.subscription ?? null;
  if (sent(present, 'account', input?.account)) changes.account = input?.account ?? null;
  if (input?.date) changes.date = input.date;
  if (input?.quantity !== undefined) changes.quantity = input.quantity;
  if (input?.terms !== undefined) changes.terms = input.terms;
  if (input?.mrr !== undefined) changes.mrr = input.mrr;
  return changes;
}

export function accountActivityChangesOf(
  input: analyticsV1.AccountActivityInput | undefined,
  present: readonly string[],
): Partial<ManualAccountActivityInput> {
  const changes: Partial<ManualAccountActivityInput> = {};
  if (input?.account_uuid !== undefined) changes.account_uuid = input.account_uuid;
  if (input?.account_code !== undefined) changes.account_code = input.account_code;
  if (input?.company_name !== undefined) changes.company_name = input.company_name;
  if (input?.type !== undefined) changes.type = input.type;
  if (sent(present, 'new_mrr', input?.new_mrr)) changes.new_mrr = input?.new_mrr ?? null;
  if (sent(present, 'old_mrr', input?.old_mrr)) changes.old_mrr = input?.old_mrr ?? null;
  if (input?.date) changes.date = input.date;
  if (sent(present, 'subscription', input?.subscription)) changes.subscription = input?.subscription ?? null;
  if (input?.churn_reason !== undefined) changes.churn_reason = input.churn_reason;
  if (sent(present, 'account_first_subscription_start_date', input?.account_first_subscription_start_date)) {
    changes.account_first_subscription_start_date = input?.account_first_subscription_start_date ?? null;
  }
  if (input?.deleted !== undefined) changes.deleted = input.deleted;
  return changes;
}

export function manualActivityOf(input: analyticsV1.ActivityInput | undefined): ManualActivityInput {
  return {
    subscription: input?.subscription ?? null,
    account: input?.account ?? null,
    date: input?.date ?? new Date(Number.NaN),
    quantity: input?.quantity ?? 0,
    terms: input?.terms ?? '',
    mrr: input?.mrr ?? '0',
  };
}

export function manualAccountActivityOf(
  input: analyticsV1.AccountActivityInput | undefined,
): ManualAccountActivityInput {
  return {
    account_uuid: input?.account_uuid ?? '',
    account_code: input?.account_code ?? '',
    company_name: input?.company_name ?? '',
    type: input?.type ?? '',
    new_mrr: input?.new_mrr ?? null,
    old_mrr: input?.old_mrr ?? null,
    date: input?.date ?? new Date(Number.NaN),
    subscription: input?.subscription ?? null,
    churn_reason: input?.churn_reason ?? '',
    account_first_subscription_start_date: input?.account_first_subscription_start_date ?? null,
    deleted: input?.deleted,
  };
}
