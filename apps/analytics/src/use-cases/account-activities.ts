import { randomUUID } from 'node:crypto';
import type { PageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { MoneyDecimal, money } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { type ChangeScope, orgNow, requireOrganization, runChange } from '@billing/runtime';
import { findAccountActivityView, listAccountActivityViews } from '../db/account-activity-queries.js';
import { AccountActivityEntity, type AccountActivityRow } from '../db/entities/activity.entity.js';
import { AccountEntity } from '../db/entities/read-models.entity.js';
import type { AccountActivityListFilter, AccountActivityView } from '../domain/activity-view.js';
import type { AnalyticsDeps } from './deps.js';
import { readSettings } from './organization-settings.js';

/** The account activity write body (api-spec): required but is_manual and deleted. */
export interface ManualAccountActivityInput {
  account_uuid: string;
  account_code: string;
  company_name: string;
  type: string;
  new_mrr: string | null;
  old_mrr: string | null;
  date: Date;
  subscription: string | null;
  churn_reason: string;
  account_first_subscription_start_date: Date | null;
  deleted?: boolean | undefined;
}

export async function listAccountActivities(
  deps: AnalyticsDeps,
  context: RequestContext,
  filter: AccountActivityListFilter,
  page: PageSpec,
): Promise<{ count: number; views: AccountActivityView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { base } = await readSettings(em, organizationId);
  return listAccountActivityViews(em, organizationId, base, filter, page, orgNow(deps.clock, context));
}

export async function getAccountActivity(
  deps: AnalyticsDeps,
  context: RequestContext,
  uuid: string,
): Promise<AccountActivityView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { base } = await readSettings(em, organizationId);
  const view = await findAccountActivityView(em, organizationId, base, uuid);
  if (!view) throw AppError.notFound();
  return view;
}

function columnsOf(input: ManualAccountActivityInput) {
  const old = input.old_mrr === null ? null : money(input.old_mrr);
  const next = input.new_mrr === null ? null : money(input.new_mrr);
  const change = (next ?? new MoneyDecimal(0)).minus(old ?? new MoneyDecimal(0));
  return {
    account_id: input.account_uuid,
    account_code: input.account_code,
    company_name: input.company_name,
    type: input.type,
    old_mrr: old?.toFixed(2) ?? null,
    new_mrr: next?.toFixed(2) ?? null,
    mrr_change: change.toFixed(2),
    date: input.date,
    subscription: input.subscription,
    churn_reason: input.churn_reason,
    account_first_subscription_start_date: input.account_first_subscription_start_date,
    ...(input.deleted !== undefined ? { deleted: input.deleted } : {}),
  };
}

/** POST /activities/account/: a manual account activity of one of the organization's accounts. */
export async function createAccountActivity(
  deps: AnalyticsDeps,
  context: RequestContext,
  input: ManualAccountActivityInput,
): Promise<AccountActivityView> {
  const id = randomUUID();
  await runChange(deps, 'analytics', context, async (scope) => {
    const account = await scope.em.findOne(AccountEntity, {
      id: input.account_uuid,
      organization_id: scope.organizationId,
    });
    if (!account) {
      throw AppError.invalidField('account_uuid', `Invalid pk "${input.account_uuid}" - object does not exist.`);
    }
    scope.em.create(AccountActivityEntity, {
      id,
      organization_id: scope.organizationId,
      source_id: null,
      created_date: scope.now,
      is_manual: true,
      deleted: false,
      dropped: false,
      ...columnsOf(input),
    } as AccountActivityRow);
    scope.audit('account_activity.create', 'account_activity', id);
  });
  return getAccountActivity(deps, context, id);
}

async function requireAccountActivity(scope: ChangeScope, uuid: string): Promise<AccountActivityRow> {
  const row = await scope.em.findOne(AccountActivityEntity, { id: uuid, organization_id: scope.organizationId });
  if (!row) throw AppError.notFound();
  return row;
}

/** PUT / PATCH /activities/account/{uuid}/: manual account activities only. */
export async function updateAccountActivity(
  deps: AnalyticsDeps,
  context: RequestContext,
  uuid: string,
  input: Partial<ManualAccountActivityInput>,
): Promise<AccountActivityView> {
  await runChange(deps, 'analytics', context, async (scope) => {
    const row = await requireAccountActivity(scope, uuid);
    if (!row.is_manual) throw AppError.refused('NOT_MANUAL', 'Only manual account activities can be changed.');
    const merged: ManualAccountActivityInput = {
      account_uuid: input.account_uuid ?? row.account_id,
      account_code: input.account_code ?? row.account_code ?? '',
      company_name: input.company_name ?? row.company_name ?? '',
      type: input.type ?? row.type,
      new_mrr: input.new_mrr !== undefined ? input.new_mrr : (row.new_mrr ?? null),
      old_mrr: input.old_mrr !== undefined ? input.old_mrr : (row.old_mrr ?? null),
      date: input.date ?? row.date,
      subscription: input.subscription !== undefined ? input.subscription : (row.subscription ?? null),
      churn_reason: input.churn_reason ?? row.churn_reason,
      account_first_subscription_start_date:
        input.account_first_subscription_start_date !== undefined
          ? input.account_first_subscription_start_date
          : (row.account_first_subscription_start_date ?? null),
      deleted: input.deleted,
    };
    if (merged.account_uuid !== row.account_id) {
      const account = await scope.em.findOne(AccountEntity, {
        id: merged.account_uuid,
        organization_id: scope.organizationId,
      });
      if (!account) {
        throw AppError.invalidField('account_uuid', `Invalid pk "${merged.account_uuid}" - object does not exist.`);
      }
    }
    scope.em.assign(row, columnsOf(merged));
    scope.audit('account_activity.update', 'account_activity', uuid);
  });
  return getAccountActivity(deps, context, uuid);
}

/** DELETE /activities/account/{uuid}/: marked deleted. */
export async function deleteAccountActivity(deps: AnalyticsDeps, context: RequestContext, uuid: string) {
  await runChange(deps, 'analytics', context, async (scope) => {
    const row = await requireAccountActivity(scope, uuid);
    if (!row.deleted) {
      row.deleted = true;
      scope.audit('account_activity.delete', 'account_activity', uuid);
    }
  });
}
