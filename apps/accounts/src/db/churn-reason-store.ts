import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ChurnReasonEntity, type ChurnReasonRow } from './entities/churn-reason.entity.js';

/**
 * The organization's reason with that uuid, or 404: also for a deleted one, another
 * organization's, or text that is no uuid (which would fail the query on the uuid column).
 */
export async function requireChurnReason(
  em: EntityManager,
  organizationId: string,
  uuid: string,
): Promise<ChurnReasonRow> {
  const row = isUuid(uuid)
    ? await em.findOne(ChurnReasonEntity, { organization_id: organizationId, id: uuid, deleted_at: null })
    : null;
  if (!row) throw AppError.notFound();
  return row;
}

/** One page of the organization's reasons not deleted, optionally only the (in)active ones. */
export function findChurnReasonPage(
  em: EntityManager,
  organizationId: string,
  isActive: boolean | undefined,
  page: { column: string; direction: 'asc' | 'desc'; limit: number; offset: number },
): Promise<[ChurnReasonRow[], number]> {
  return em.findAndCount(
    ChurnReasonEntity,
    { organization_id: organizationId, deleted_at: null, ...(isActive !== undefined ? { is_active: isActive } : {}) },
    {
      orderBy: [{ [page.column]: page.direction }, { id: 'asc' }],
      limit: page.limit,
      offset: page.offset,
    },
  );
}

/** The organization's reasons with these (well-formed) uuids, deleted ones included, in no order. */
export function findChurnReasonsByIds(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
): Promise<ChurnReasonRow[]> {
  return em.find(ChurnReasonEntity, { organization_id: organizationId, id: { $in: [...ids] } });
}
