import { randomUUID } from 'node:crypto';
import { applyWrite, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { findChurnReasonPage, findChurnReasonsByIds, requireChurnReason } from '../db/churn-reason-store.js';
import { ChurnReasonEntity, type ChurnReasonRow } from '../db/entities/churn-reason.entity.js';
import {
  CHURN_REASON_SHAPE,
  type ChurnReasonFields,
  type ChurnReasonView,
  inRequestOrder,
  normaliseChurnReason,
} from '../domain/churn-reason.js';
import { lookupUuids } from '../domain/uuid.js';
import { publishChurnReasonEvent } from '../events/churn-reason-events.js';
import { requireOrganization, runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

const ORDERING: Readonly<Record<string, string>> = { name: 'name', created_date: 'created_at' };

function viewOf(row: ChurnReasonRow): ChurnReasonView {
  return { uuid: row.id, name: row.name, is_active: row.is_active, deleted: row.deleted_at !== null };
}

function checked(
  current: ChurnReasonFields | null,
  write: Write<ChurnReasonFields>,
  mode: 'create' | 'replace' | 'patch',
) {
  const applied = applyWrite(CHURN_REASON_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const normalised = normaliseChurnReason(applied.fields as ChurnReasonFields);
  if (normalised.violations.length > 0) throw AppError.invalid(normalised.violations);
  return normalised.fields;
}

export async function createChurnReason(
  deps: AccountsDeps,
  context: RequestContext,
  write: Write<ChurnReasonFields>,
): Promise<ChurnReasonView> {
  return runChange(deps, context, async (scope) => {
    const fields = checked(null, write, 'create');
    const row = scope.em.create(ChurnReasonEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      name: fields.name,
      is_active: fields.is_active,
      created_at: scope.now,
      updated_at: scope.now,
      deleted_at: null,
    });
    await scope.em.flush();
    scope.audit('churn_reason.create', 'churn_reason', row.id, { name: row.name, is_active: row.is_active });
    publishChurnReasonEvent(scope, 'churn_reason.created', viewOf(row));
    return viewOf(row);
  });
}

export async function updateChurnReason(
  deps: AccountsDeps,
  context: RequestContext,
  uuid: string,
  write: Write<ChurnReasonFields>,
  replace: boolean,
): Promise<ChurnReasonView> {
  return runChange(deps, context, async (scope) => {
    const row = await requireChurnReason(scope.em, scope.organizationId, uuid);
    const fields = checked({ name: row.name, is_active: row.is_active }, write, replace ? 'replace' : 'patch');
    scope.em.assign(row, { ...fields, updated_at: scope.now });
    await scope.em.flush();
    scope.audit(replace ? 'churn_reason.replace' : 'churn_reason.update', 'churn_reason', row.id, {
      fields: [...write.present],
    });
    publishChurnReasonEvent(scope, 'churn_reason.updated', viewOf(row));
    return viewOf(row);
  });
}

/** Marks the reason deleted: subscriptions elsewhere may still name it (see the entity). */
export async function deleteChurnReason(deps: AccountsDeps, context: RequestContext, uuid: string): Promise<void> {
  await runChange(deps, context, async (scope) => {
    const row = await requireChurnReason(scope.em, scope.organizationId, uuid);
    row.deleted_at = scope.now;
    row.updated_at = scope.now;
    await scope.em.flush();
    scope.audit('churn_reason.delete', 'churn_reason', row.id, { name: row.name });
    publishChurnReasonEvent(scope, 'churn_reason.deleted', viewOf(row));
  });
}

export async function getChurnReason(
  deps: AccountsDeps,
  context: RequestContext,
  uuid: string,
): Promise<ChurnReasonView> {
  return viewOf(await requireChurnReason(deps.orm.em.fork(), requireOrganization(context), uuid));
}

export async function listChurnReasons(
  deps: AccountsDeps,
  context: RequestContext,
  isActive: boolean | undefined,
  page: PageSpec,
): Promise<{ count: number; reasons: ChurnReasonView[] }> {
  const organizationId = requireOrganization(context);
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', ORDERING, 'created_date');
  const [rows, count] = await findChurnReasonPage(deps.orm.em.fork(), organizationId, isActive, {
    column,
    direction,
    limit: page.pageSize,
    offset: (page.page - 1) * page.pageSize,
  });
  return { count, reasons: rows.map(viewOf) };
}

/** One query for any number of uuids (deleted reasons included), in the order asked. */
export async function getChurnReasons(
  deps: AccountsDeps,
  context: RequestContext,
  uuids: readonly string[],
): Promise<ChurnReasonView[]> {
  const organizationId = requireOrganization(context);
  const wanted = lookupUuids(uuids);
  if (wanted.length === 0) return [];
  const rows = await findChurnReasonsByIds(deps.orm.em.fork(), organizationId, wanted);
  return inRequestOrder(uuids, rows.map(viewOf));
}
