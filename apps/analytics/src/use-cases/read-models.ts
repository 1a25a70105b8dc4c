import type { EntityManager } from '@mikro-orm/postgresql';
import { renameDerivedChurns } from '../db/account-activity-store.js';
import {
  AccountEntity,
  ChurnReasonEntity,
  OrganizationEntity,
  PlanEntity,
  PlanTermsEntity,
} from '../db/entities/read-models.entity.js';
import { lockOrganizationActivities } from '../db/event-log.js';
import type { ExchangeRate } from '../domain/exchange-rates.js';

export interface OrganizationState {
  id: string;
  base_currency: string;
  time_zone: string;
  exchange_rates: ExchangeRate[];
}

export interface AccountState {
  uuid: string;
  code: string;
  company_name: string;
  legal_country: string;
  ean_invoicing: boolean;
}

export interface PlanTermsState {
  uuid: string;
  plan: string;
  code: string;
  currency: string;
  interval_type: string;
  interval_count: number;
  revenue_group: string | null;
}

/** organization.created / .updated: the latest state replaces the stored one. */
export async function applyOrganization(em: EntityManager, state: OrganizationState): Promise<void> {
  await em.upsert(OrganizationEntity, {
    id: state.id,
    base_currency: state.base_currency,
    time_zone: state.time_zone,
    exchange_rates: state.exchange_rates,
  });
}

/** account.created / .updated / .deleted: the code and names activities show (deleted accounts keep theirs). */
export async function applyAccount(em: EntityManager, organizationId: string, state: AccountState): Promise<void> {
  await em.upsert(AccountEntity, { id: state.uuid, organization_id: organizationId, ...withoutUuid(state) });
}

/** plan.created / .updated: the plan's name and its terms. */
export async function applyPlan(
  em: EntityManager,
  organizationId: string,
  plan: { uuid: string; name: string; code: string; collect_vat: boolean; vat_type: string; terms: PlanTermsState[] },
): Promise<void> {
  const { uuid, terms: _terms, ...shown } = plan;
  await em.upsert(PlanEntity, { id: uuid, organization_id: organizationId, ...shown });
  for (const terms of plan.terms) await applyPlanTerms(em, organizationId, terms);
}

/** plan_terms.*: what activities and reports show of terms (deleted terms keep their row). */
export async function applyPlanTerms(em: EntityManager, organizationId: string, terms: PlanTermsState): Promise<void> {
  const { uuid, plan, ...rest } = terms;
  await em.upsert(PlanTermsEntity, { id: uuid, organization_id: organizationId, plan_id: plan, ...rest });
}

/**
 * churn_reason.created / .updated / .deleted: the name churn account activities show (gaps.md §8),
 * set on the churns already derived too. Under the organization's lock, as a rebuild derives them.
 */
export async function applyChurnReason(
  em: EntityManager,
  organizationId: string,
  reason: { uuid: string; name: string },
): Promise<void> {
  await lockOrganizationActivities(em, organizationId);
  await em.upsert(ChurnReasonEntity, { id: reason.uuid, organization_id: organizationId, name: reason.name });
  await renameDerivedChurns(em, organizationId, reason.uuid, reason.name);
}

function withoutUuid(state: AccountState) {
  const { uuid: _uuid, ...rest } = state;
  return rest;
}
