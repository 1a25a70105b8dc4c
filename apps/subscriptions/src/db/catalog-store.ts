import { AppError } from '@billing/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PlanTermsView, PlanView } from '../domain/catalog/plan-view.js';
import { presentPrice } from '../domain/catalog/prices.js';
import { ContractEntity } from './entities/contract.entity.js';
import { PlanEntity, type PlanRow } from './entities/plan.entity.js';
import { PlanTermsEntity, type PlanTermsRow } from './entities/plan-terms.entity.js';

export function toPlanTermsView(row: PlanTermsRow): PlanTermsView {
  return {
    uuid: row.id,
    plan: row.plan_id,
    code: row.code,
    interval_type: row.interval_type,
    interval_count: row.interval_count,
    price: presentPrice(row.price),
    currency: row.currency,
    backwards_charging: row.backwards_charging,
    active: row.active,
    revenue_group: row.revenue_group ?? null,
  };
}

/** Plans with their terms (oldest first), in two queries whatever the number of plans. */
export async function loadPlanViews(em: EntityManager, organizationId: string, rows: PlanRow[]): Promise<PlanView[]> {
  if (rows.length === 0) return [];
  const terms = await em.find(
    PlanTermsEntity,
    { organization_id: organizationId, plan_id: { $in: rows.map((row) => row.id) } },
    { orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
  );
  return rows.map((row) => ({
    uuid: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    collect_vat: row.collect_vat,
    vat_type: row.vat_type,
    planterms: terms.filter((term) => term.plan_id === row.id).map(toPlanTermsView),
  }));
}

export async function planView(em: EntityManager, organizationId: string, row: PlanRow): Promise<PlanView> {
  const [view] = await loadPlanViews(em, organizationId, [row]);
  return view!;
}

/** The organization's plan, or 404 (also for another organization's plan). */
export async function requirePlan(em: EntityManager, organizationId: string, uuid: string): Promise<PlanRow> {
  const row = await em.findOne(PlanEntity, { organization_id: organizationId, id: uuid });
  if (!row) throw AppError.notFound();
  return row;
}

export async function findPlan(em: EntityManager, organizationId: string, uuid: string): Promise<PlanRow | null> {
  return em.findOne(PlanEntity, { organization_id: organizationId, id: uuid });
}

export async function requirePlanTerms(em: EntityManager, organizationId: string, uuid: string): Promise<PlanTermsRow> {
  const row = await em.findOne(PlanTermsEntity, { organization_id: organizationId, id: uuid });
  if (!row) throw AppError.notFound();
  return row;
}

export async function findPlanTerms(
  em: EntityManager,
  organizationId: string,
  uuid: string,
): Promise<PlanTermsRow | null> {
  return em.findOne(PlanTermsEntity, { organization_id: organizationId, id: uuid });
}

export async function planCodeTaken(
  em: EntityManager,
  organizationId: string,
  code: string,
  exceptId?: string,
): Promise<boolean> {
  const existing = await em.findOne(PlanEntity, { organization_id: organizationId, code }, { fields: ['id'] });
  return existing !== null && existing.id !== exceptId;
}

/** How many contracts name these terms (deleting terms a contract names is refused). */
export async function contractCountForTerms(
  em: EntityManager,
  organizationId: string,
  termsId: string,
): Promise<number> {
  return em.count(ContractEntity, { organization_id: organizationId, plan_terms_id: termsId });
}

/** How many subscriptions use these terms, now or in a waiting change (deleting such terms is refused). */
export async function subscriptionCountForTerms(
  em: EntityManager,
  organizationId: string,
  termsId: string,
): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(
    `select count(*) as n from subscription where organization_id = ? and (plan_terms_id = ? or scheduled_change->>'terms_id' = ?)`,
    [organizationId, termsId, termsId],
  );
  return Number(row?.n ?? 0);
}
