import type { CurrencyCode } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import { applicableContract } from '../domain/contracts.js';
import type { FixedContract, TermsSnapshot } from '../domain/lifecycle/index.js';
import { formatLocalDate, localDateOf } from '../domain/local-time.js';
import type { IntervalType } from '../domain/periods.js';
import type { DiscountType } from '../domain/pricing.js';
import { type PlanTermsView, type PlanView, toPlanTermsView } from './catalog-store.js';
import { loadContractViews } from './contract-store.js';
import { ContractEntity } from './entities/contract.entity.js';
import { PlanEntity, type PlanRow } from './entities/plan.entity.js';
import { PlanTermsEntity, type PlanTermsRow } from './entities/plan-terms.entity.js';

/** Plan terms with their plan, as subscriptions embed and price them. */
export interface CatalogEntry {
  terms: PlanTermsRow;
  plan: PlanRow;
}

export function termsSnapshot(row: PlanTermsRow): TermsSnapshot {
  return {
    uuid: row.id,
    plan: row.plan_id,
    price: row.price,
    currency: row.currency as CurrencyCode,
    interval: { type: row.interval_type as IntervalType, count: row.interval_count },
    backwards_charging: row.backwards_charging,
  };
}

export function embeddedTerms(entry: CatalogEntry): PlanTermsView {
  return toPlanTermsView(entry.terms);
}

export function embeddedPlan(entry: CatalogEntry): Omit<PlanView, 'planterms'> {
  const plan = entry.plan;
  return {
    uuid: plan.id,
    name: plan.name,
    code: plan.code,
    description: plan.description,
    collect_vat: plan.collect_vat,
    vat_type: plan.vat_type,
  };
}

/** The organization's terms (with plans) of these uuids, in two queries. */
export async function loadCatalog(
  em: EntityManager,
  organizationId: string,
  termsIds: Iterable<string>,
): Promise<Map<string, CatalogEntry>> {
  const ids = [...new Set(termsIds)];
  const catalog = new Map<string, CatalogEntry>();
  if (ids.length === 0) return catalog;
  const terms = await em.find(PlanTermsEntity, { organization_id: organizationId, id: { $in: ids } });
  const plans = await em.find(PlanEntity, {
    organization_id: organizationId,
    id: { $in: [...new Set(terms.map((row) => row.plan_id))] },
  });
  const planById = new Map(plans.map((plan) => [plan.id, plan]));
  for (const row of terms) catalog.set(row.id, { terms: row, plan: planById.get(row.plan_id)! });
  return catalog;
}

/**
 * The account's contracts, loaded once; `contractFor` picks the one applying on a day (gaps §5)
 * and returns what is fixed into the subscription.
 */
export async function contractResolver(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  timeZone: string,
): Promise<(terms: TermsSnapshot, at: Date) => FixedContract | null> {
  const rows = await em.find(ContractEntity, { organization_id: organizationId, account_id: accountId });
  if (rows.length === 0) return () => null;
  const contracts = await loadContractViews(em, organizationId, rows);
  return (terms, at) => {
    const day = formatLocalDate(localDateOf(at, timeZone));
    const contract = applicableContract(contracts, terms.uuid, day);
    if (!contract) return null;
    return {
      uuid: contract.uuid,
      start_date: contract.start_date,
      commitment_length: contract.commitment_length,
      exclusive_tiers: contract.exclusive_tiers,
      tiers: contract.tiers.map((tier) => ({
        minimum_quantity: tier.minimum_quantity,
        maximum_quantity: tier.maximum_quantity,
        discount: tier.discount,
        discount_type: tier.discount_type as DiscountType,
      })),
    };
  };
}
