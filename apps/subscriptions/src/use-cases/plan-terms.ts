import { randomUUID } from 'node:crypto';
import { applyWrite, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import {
  contractCountForTerms,
  findPlan,
  requirePlanTerms,
  subscriptionCountForTerms,
  toPlanTermsView,
} from '../db/catalog-store.js';
import { PlanTermsEntity } from '../db/entities/plan-terms.entity.js';
import {
  fixedFieldViolations,
  PLAN_TERMS_MUTABLE,
  PLAN_TERMS_PATCH_SHAPE,
  PLAN_TERMS_SHAPE,
  type PlanTermsFields,
} from '../domain/catalog/plan-fields.js';
import type { PlanTermsView } from '../domain/catalog/plan-view.js';
import { storedPrice } from '../domain/catalog/prices.js';
import { publishPlanTermsEvent } from '../events/catalog-events.js';
import { requireOrganization, runChange } from './change-transaction.js';
import type { SubscriptionsDeps } from './deps.js';

const PLAN_TERMS_ORDERING: Readonly<Record<string, string>> = {
  code: 'code',
  price: 'price',
  created_date: 'created_at',
};

export interface PlanTermsFilter {
  plan?: string;
  active?: boolean;
  currency?: string;
}

export async function createPlanTerms(
  deps: SubscriptionsDeps,
  context: RequestContext,
  write: Write<PlanTermsFields>,
): Promise<PlanTermsView> {
  return runChange(deps, context, async (scope) => {
    const applied = applyWrite(PLAN_TERMS_SHAPE, null, write, 'create');
    if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
    const fields = applied.fields as PlanTermsFields;
    const plan = await findPlan(scope.em, scope.organizationId, fields.plan);
    if (!plan) throw AppError.invalidField('plan', `Invalid pk "${fields.plan}" - object does not exist.`);
    const row = scope.em.create(PlanTermsEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      plan_id: plan.id,
      code: fields.code,
      interval_type: fields.interval_type,
      interval_count: fields.interval_count,
      price: storedPrice(fields.price),
      currency: fields.currency,
      backwards_charging: fields.backwards_charging,
      active: true,
      revenue_group: fields.revenue_group ?? null,
      created_at: scope.now,
      updated_at: scope.now,
    });
    await scope.em.flush();
    const view = toPlanTermsView(row);
    scope.audit('plan_terms.create', 'plan_terms', row.id, { plan: plan.id, code: row.code });
    publishPlanTermsEvent(scope, 'plan_terms.created', view);
    return view;
  });
}

/** PATCH: active, code, price and revenue_group; the other fields are refused (gaps.md §5). */
export async function updatePlanTerms(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
  write: Write<PlanTermsFields>,
): Promise<PlanTermsView> {
  return runChange(deps, context, async (scope) => {
    const row = await requirePlanTerms(scope.em, scope.organizationId, uuid);
    const fixed = fixedFieldViolations(write.present);
    if (fixed.length > 0) throw AppError.invalid(fixed);
    const mutable = new Set([...write.present].filter((field) => PLAN_TERMS_MUTABLE.has(field)));
    const current: PlanTermsFields = {
      plan: row.plan_id,
      code: row.code,
      interval_type: row.interval_type,
      interval_count: row.interval_count,
      price: row.price,
      currency: row.currency,
      backwards_charging: row.backwards_charging,
      active: row.active,
      revenue_group: row.revenue_group ?? null,
    };
    const applied = applyWrite(PLAN_TERMS_PATCH_SHAPE, current, { values: write.values, present: mutable }, 'patch');
    if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
    const fields = applied.fields as PlanTermsFields;
    scope.em.assign(row, {
      code: fields.code,
      price: storedPrice(fields.price),
      active: fields.active,
      revenue_group: fields.revenue_group ?? null,
      updated_at: scope.now,
    });
    await scope.em.flush();
    const view = toPlanTermsView(row);
    scope.audit('plan_terms.update', 'plan_terms', row.id, { fields: [...write.present] });
    publishPlanTermsEvent(scope, 'plan_terms.updated', view);
    return view;
  });
}

/** Refused while a subscription uses the terms (gaps.md §5) or a contract names them: set `active` false instead. */
export async function deletePlanTerms(deps: SubscriptionsDeps, context: RequestContext, uuid: string): Promise<void> {
  await runChange(deps, context, async (scope) => {
    const row = await requirePlanTerms(scope.em, scope.organizationId, uuid);
    if ((await subscriptionCountForTerms(scope.em, scope.organizationId, row.id)) > 0) {
      throw AppError.refused(
        'PLAN_TERMS_IN_USE',
        'Plan terms used by a subscription cannot be deleted; set active to false instead.',
      );
    }
    if ((await contractCountForTerms(scope.em, scope.organizationId, row.id)) > 0) {
      throw AppError.refused(
        'PLAN_TERMS_IN_USE',
        'Plan terms used by a contract cannot be deleted; set active to false instead.',
      );
    }
    const lastState = toPlanTermsView(row);
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('plan_terms.delete', 'plan_terms', row.id, { plan: row.plan_id, code: row.code });
    publishPlanTermsEvent(scope, 'plan_terms.deleted', lastState);
  });
}

export async function getPlanTerms(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
): Promise<PlanTermsView> {
  const organizationId = requireOrganization(context);
  return toPlanTermsView(await requirePlanTerms(deps.orm.em.fork(), organizationId, uuid));
}

export async function listPlanTerms(
  deps: SubscriptionsDeps,
  context: RequestContext,
  filter: PlanTermsFilter,
  page: PageSpec,
): Promise<{ count: number; planTerms: PlanTermsView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', PLAN_TERMS_ORDERING, 'created_date');
  const [rows, count] = await em.findAndCount(
    PlanTermsEntity,
    {
      organization_id: organizationId,
      ...(filter.plan !== undefined ? { plan_id: filter.plan } : {}),
      ...(filter.active !== undefined ? { active: filter.active } : {}),
      ...(filter.currency !== undefined ? { currency: filter.currency } : {}),
    },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { count, planTerms: rows.map(toPlanTermsView) };
}
