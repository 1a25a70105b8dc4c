import { randomUUID } from 'node:crypto';
import type { PageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { MoneyDecimal, money } from '@billing/money';
import type { RequestContext } from '@billing/observability';
import { orgNow, requireOrganization, runChange } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { INVOICE_ACTIVITY_TYPES, rederiveAccountActivities } from '../db/account-activity-store.js';
import { findActivityView, listActivityViews } from '../db/activity-queries.js';
import { ActivityEntity, type ActivityRow } from '../db/entities/activity.entity.js';
import { AccountEntity, PlanTermsEntity } from '../db/entities/read-models.entity.js';
import { SubscriptionMrrEntity } from '../db/entities/subscription-mrr.entity.js';
import type { ActivityListFilter, ActivityView } from '../domain/activity-view.js';
import { toBaseMrr } from '../domain/base-mrr.js';
import { manualActivityType, type RecordedMrr } from '../domain/manual-activity.js';
import { activityCreatedEvent } from '../events/activity-events.js';
import type { AnalyticsDeps } from './deps.js';
import { organizationSettings, readSettings } from './organization-settings.js';

/** The manual activity write body (api-spec), checked for shape by the gateway. */
export interface ManualActivityInput {
  subscription: string | null;
  /** An account code: needed only without a subscription. */
  account: string | null;
  date: Date;
  quantity: number;
  terms: string;
  /** MRR in the terms' currency. */
  mrr: string;
}

const notFound = () => AppError.notFound('Not found.');
const doesNotExist = (field: string, value: string) =>
  AppError.invalidField(field, `Invalid pk "${value}" - object does not exist.`);

export async function listActivities(
  deps: AnalyticsDeps,
  context: RequestContext,
  filter: ActivityListFilter,
  page: PageSpec,
): Promise<{ count: number; views: ActivityView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { base } = await readSettings(em, organizationId);
  return listActivityViews(em, organizationId, base, filter, page, orgNow(deps.clock, context));
}

export async function getActivity(deps: AnalyticsDeps, context: RequestContext, uuid: string): Promise<ActivityView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { base } = await readSettings(em, organizationId);
  const view = await findActivityView(em, organizationId, base, uuid);
  if (!view) throw notFound();
  return view;
}

/** The MRR the subscription's counting activities record at `date` (the latest at or before it). */
async function recordedBefore(
  em: EntityManager,
  subscriptionId: string,
  date: Date,
  except: string | null,
): Promise<{ before: RecordedMrr | null; plan: string | null; cancelledBefore: boolean }> {
  const rows = await em.execute<
    Array<{
      new_terms: string | null;
      new_plan: string | null;
      new_quantity: number | null;
      new_mrr: string | null;
      type: string;
    }>
  >(
    `select new_terms, new_plan, new_quantity, new_mrr_in_subscription_currency as new_mrr, type from activity
      where subscription_id = ? and date <= ? and not (deleted or dropped) and id <> ?
        and type not in (${INVOICE_ACTIVITY_TYPES.map(() => '?').join(', ')})
      order by date desc, seq desc`,
    [subscriptionId, date, except ?? '00000000-0000-0000-0000-000000000000', ...INVOICE_ACTIVITY_TYPES],
  );
  const [last] = rows;
  return {
    before: last ? { terms: last.new_terms, quantity: last.new_quantity, mrr: money(last.new_mrr ?? '0') } : null,
    plan: last?.new_plan ?? null,
    cancelledBefore: rows.some((row) => row.type === 'cancel'),
  };
}

/** The columns of a manual activity: its account, old MRR from the subscription's history, type by the table. */
async function manualColumns(
  em: EntityManager,
  organizationId: string,
  input: ManualActivityInput,
  except: string | null,
) {
  // The objects named first: an organization analytics has no events of yet has none of them (400).
  const terms = await em.findOne(PlanTermsEntity, { id: input.terms, organization_id: organizationId });
  if (!terms) throw doesNotExist('terms', input.terms);
  let accountId: string;
  if (input.subscription) {
    const subscription = await em.findOne(SubscriptionMrrEntity, {
      id: input.subscription,
      organization_id: organizationId,
    });
    if (!subscription) throw doesNotExist('subscription', input.subscription);
    accountId = subscription.account_id;
  } else {
    if (!input.account) {
      throw AppError.invalidField('account', 'This field is required when subscription is null.');
    }
    const account = await em.findOne(AccountEntity, { organization_id: organizationId, code: input.account });
    if (!account) throw AppError.invalidField('account', `Object with code=${input.account} does not exist.`);
    accountId = account.id;
  }
  const organization = await organizationSettings(em, organizationId);
  const history = input.subscription
    ? await recordedBefore(em, input.subscription, input.date, except)
    : { before: null, plan: null, cancelledBefore: false };
  const rate = organization.rateAt(terms.currency)(input.date);
  const newExact = money(input.mrr);
  const oldExact = history.before?.mrr ?? new MoneyDecimal(0);
  const type = manualActivityType(
    history.before,
    { terms: input.terms, quantity: input.quantity, mrr: newExact },
    history.cancelledBefore,
  );
  const oldBase = toBaseMrr(oldExact, rate, organization.base);
  const newBase = toBaseMrr(newExact, rate, organization.base);
  return {
    accountId,
    columns: {
      account_id: accountId,
      subscription_id: input.subscription,
      type,
      date: input.date,
      is_churn: type === 'cancel',
      old_currency: history.before ? terms.currency : null,
      new_currency: terms.currency,
      old_mrr_in_subscription_currency: oldExact.toFixed(),
      new_mrr_in_subscription_currency: newExact.toFixed(),
      old_mrr: oldBase?.toFixed(2) ?? null,
      new_mrr: newBase?.toFixed(2) ?? null,
      mrr_change: oldBase && newBase ? newBase.minus(oldBase).toFixed(2) : null,
      old_quantity: history.before?.quantity ?? null,
      new_quantity: input.quantity,
      old_terms: history.before?.terms ?? null,
      new_terms: input.terms,
      old_plan: history.plan,
      new_plan: terms.plan_id,
    },
  };
}

/** POST /activities/: a manual activity (gaps.md §8), and the account's activities derived again. */
export async function createActivity(
  deps: AnalyticsDeps,
  context: RequestContext,
  input: ManualActivityInput,
): Promise<ActivityView> {
  const id = randomUUID();
  await runChange(deps, 'analytics', context, async (scope) => {
    const { accountId, columns } = await manualColumns(scope.em, scope.organizationId, input, null);
    scope.em.create(ActivityEntity, {
      id,
      organization_id: scope.organizationId,
      invoice_id: null,
      created_date: scope.now,
      updated_date: scope.now,
      is_manual: true,
      deleted: false,
      dropped: false,
      planned: false,
      plan_key: null,
      churn_reason: null,
      custom_churn_reason: null,
      ...columns,
    } as ActivityRow);
    scope.audit('activity.create', 'activity', id);
    await rederiveAccountActivities(scope.em, scope.organizationId, accountId, scope.now);
    scope.publish(await activityCreatedEvent(scope.em, scope.organizationId, id));
  });
  return getActivity(deps, context, id);
}

async function requireActivity(em: EntityManager, organizationId: string, uuid: string): Promise<ActivityRow> {
  const row = await em.findOne(ActivityEntity, { id: uuid, organization_id: organizationId });
  if (!row) throw notFound();
  return row;
}

/** PUT / PATCH /activities/{uuid}/: manual activities only (gaps.md §8). */
export async function updateActivity(
  deps: AnalyticsDeps,
  context: RequestContext,
  uuid: string,
  input: Partial<ManualActivityInput>,
): Promise<ActivityView> {
  await runChange(deps, 'analytics', context, async (scope) => {
    const row = await requireActivity(scope.em, scope.organizationId, uuid);
    if (!row.is_manual) {
      throw AppError.refused('NOT_MANUAL', 'Only manual activities can be changed.');
    }
    const previousAccount = row.account_id;
    const merged: ManualActivityInput = {
      subscription: input.subscription !== undefined ? input.subscription : (row.subscription_id ?? null),
      account: input.account ?? null,
      date: input.date ?? row.date,
      quantity: input.quantity ?? row.new_quantity ?? 1,
      terms: input.terms ?? row.new_terms ?? '',
      mrr: input.mrr ?? row.new_mrr_in_subscription_currency ?? '0',
    };
    if (!merged.subscription && !input.account) {
      const account = await scope.em.findOne(AccountEntity, { id: row.account_id });
      merged.account = account?.code ?? null;
    }
    const { accountId, columns } = await manualColumns(scope.em, scope.organizationId, merged, row.id);
    scope.em.assign(row, { ...columns, updated_date: scope.now });
    scope.audit('activity.update', 'activity', uuid);
    await rederiveAccountActivities(scope.em, scope.organizationId, accountId, scope.now);
    if (previousAccount !== accountId) {
      await rederiveAccountActivities(scope.em, scope.organizationId, previousAccount, scope.now);
    }
  });
  return getActivity(deps, context, uuid);
}

/** DELETE /activities/{uuid}/: marked deleted; the account's activities follow. */
export async function deleteActivity(deps: AnalyticsDeps, context: RequestContext, uuid: string): Promise<void> {
  await runChange(deps, 'analytics', context, async (scope) => {
    const row = await requireActivity(scope.em, scope.organizationId, uuid);
    if (!row.deleted) {
      scope.em.assign(row, { deleted: true, updated_date: scope.now });
      scope.audit('activity.delete', 'activity', uuid);
      await rederiveAccountActivities(scope.em, scope.organizationId, row.account_id, scope.now);
    }
  });
}
