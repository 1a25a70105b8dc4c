import { randomUUID } from 'node:crypto';
import { isConstraintViolation } from '@billing/db';
import { applyWrite, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { loadPlanViews, planCodeTaken, planView, requirePlan } from '../db/catalog-store.js';
import { PlanEntity } from '../db/entities/plan.entity.js';
import { PLAN_SHAPE, type PlanFields } from '../domain/catalog/plan-fields.js';
import type { PlanView } from '../domain/catalog/plan-view.js';
import { publishPlanEvent } from '../events/catalog-events.js';
import { type ChangeScope, requireOrganization, runChange } from './change-transaction.js';
import type { SubscriptionsDeps } from './deps.js';

const PLAN_ORDERING: Readonly<Record<string, string>> = {
  name: 'name',
  code: 'code',
  created_date: 'created_at',
};

const CODE_TAKEN = 'plan with this code already exists.';

async function preparePlanFields(
  scope: ChangeScope,
  current: (PlanFields & { id: string }) | null,
  write: Write<PlanFields>,
  mode: 'create' | 'replace' | 'patch',
): Promise<PlanFields> {
  const applied = applyWrite(PLAN_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const fields = applied.fields as PlanFields;
  if (await planCodeTaken(scope.em, scope.organizationId, fields.code, current?.id)) {
    throw AppError.invalidField('code', CODE_TAKEN);
  }
  return { ...fields, description: fields.description ?? '' };
}

/** Two concurrent writes of one code pass the check; the unique constraint decides. */
async function flushPlan(scope: ChangeScope): Promise<void> {
  try {
    await scope.em.flush();
  } catch (error) {
    if (isConstraintViolation(error, 'plan_organization_code_unique')) throw AppError.invalidField('code', CODE_TAKEN);
    throw error;
  }
}

export async function createPlan(
  deps: SubscriptionsDeps,
  context: RequestContext,
  write: Write<PlanFields>,
): Promise<PlanView> {
  return runChange(deps, context, async (scope) => {
    const fields = await preparePlanFields(scope, null, write, 'create');
    const row = scope.em.create(PlanEntity, {
      ...fields,
      id: randomUUID(),
      organization_id: scope.organizationId,
      created_at: scope.now,
      updated_at: scope.now,
    });
    await flushPlan(scope);
    const view = await planView(scope.em, scope.organizationId, row);
    scope.audit('plan.create', 'plan', row.id, { code: row.code });
    publishPlanEvent(scope, 'plan.created', view);
    return view;
  });
}

/** PUT (`replace`: required fields must be sent) or PATCH. */
export async function updatePlan(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
  write: Write<PlanFields>,
  replace: boolean,
): Promise<PlanView> {
  return runChange(deps, context, async (scope) => {
    const row = await requirePlan(scope.em, scope.organizationId, uuid);
    const fields = await preparePlanFields(scope, row, write, replace ? 'replace' : 'patch');
    scope.em.assign(row, { ...fields, updated_at: scope.now });
    await flushPlan(scope);
    const view = await planView(scope.em, scope.organizationId, row);
    scope.audit(replace ? 'plan.replace' : 'plan.update', 'plan', row.id, { fields: [...write.present] });
    publishPlanEvent(scope, 'plan.updated', view);
    return view;
  });
}

export async function getPlan(deps: SubscriptionsDeps, context: RequestContext, uuid: string): Promise<PlanView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  return planView(em, organizationId, await requirePlan(em, organizationId, uuid));
}

export async function listPlans(
  deps: SubscriptionsDeps,
  context: RequestContext,
  page: PageSpec,
): Promise<{ count: number; plans: PlanView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', PLAN_ORDERING, 'created_date');
  const [rows, count] = await em.findAndCount(
    PlanEntity,
    { organization_id: organizationId },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { count, plans: await loadPlanViews(em, organizationId, rows) };
}
