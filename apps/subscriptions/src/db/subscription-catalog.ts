import type { CurrencyCode } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractView } from '../domain/catalog/contract-view.js';
import type { PlanSummary, PlanTermsView } from '../domain/catalog/plan-view.js';
import { applicableContract, bindingCommitment } from '../domain/contracts.js';
import type { AccountContracts, TermsSnapshot } from '../domain/lifecycle/index.js';
import { formatLocalDate, localDateOf } from '../domain/local-time.js';
import type { IntervalType } from '../domain/periods.js';
import type { DiscountType } from '../domain/pricing.js';
import { toPlanTermsView } from './catalog-store.js';
import { loadContractViews } from './contract-store.js';
import { ContractEntity } from './entities/contract.entity.js';
import { PlanEntity, type PlanRow } from './entities/plan.entity.js';
import { PlanTermsEntity, type PlanTermsRow } from './entities/plan-terms.entity.js';
import type { SubscriptionRow } from './entities/subscription.entity.js';

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

export function embeddedPlan(entry: CatalogEntry): PlanSummary {
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

/** The terms a subscription's engine run needs: its own, and those of its waiting change. */
export function termsIdsOf(row: Pick<SubscriptionRow, 'plan_terms_id' | 'scheduled_change'>): string[] {
  return row.scheduled_change ? [row.plan_terms_id, row.scheduled_change.terms_id] : [row.plan_terms_id];
}

/** Terms (with plans) of any organization by uuid: the scheduler's batch spans organizations. */
export async function loadCatalogByIds(
  em: EntityManager,
  termsIds: Iterable<string>,
): Promise<Map<string, CatalogEntry>> {
  const ids = [...new Set(termsIds)];
  const catalog = new Map<string, CatalogEntry>();
  if (ids.length === 0) return catalog;
  const terms = await em.find(PlanTermsEntity, { id: { $in: ids } });
  const plans = await em.find(PlanEntity, { id: { $in: [...new Set(terms.map((row) => row.plan_id))] } });
  const planById = new Map(plans.map((plan) => [plan.id, plan]));
  for (const row of terms) catalog.set(row.id, { terms: row, plan: planById.get(row.plan_id)! });
  return catalog;
}

/** Oldest first: among contracts that started on the same day, applicableContract takes the first. */
const CONTRACT_ORDER = [{ created_at: 'asc' }, { id: 'asc' }] as const;

const NO_CONTRACTS: AccountContracts = { contractFor: () => null, commitmentOn: () => null };

/**
 * An account's contracts as the engine reads them (gaps §5), each question on the local day of its
 * moment: the contract that prices the subscription, the commitment that binds it.
 */
function resolverOf(contracts: readonly ContractView[], timeZone: string): AccountContracts {
  if (contracts.length === 0) return NO_CONTRACTS;
  const dayOf = (at: Date) => formatLocalDate(localDateOf(at, timeZone));
  return {
    contractFor: (terms, at) => {
      const contract = applicableContract(contracts, terms.uuid, dayOf(at));
      if (!contract) return null;
      return {
        uuid: contract.uuid,
        exclusive_tiers: contract.exclusive_tiers,
        tiers: contract.tiers.map((tier) => ({
          minimum_quantity: tier.minimum_quantity,
          maximum_quantity: tier.maximum_quantity,
          discount: tier.discount,
          discount_type: tier.discount_type as DiscountType,
        })),
      };
    },
    commitmentOn: (terms, at) => bindingCommitment(contracts, terms.uuid, dayOf(at)),
  };
}

/** The account's contracts, loaded once, as the engine reads them. */
export async function contractResolver(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  timeZone: string,
): Promise<AccountContracts> {
  const rows = await em.find(
    ContractEntity,
    { organization_id: organizationId, account_id: accountId },
    { orderBy: [...CONTRACT_ORDER] },
  );
  return resolverOf(await loadContractViews(em, organizationId, rows), timeZone);
}

/** Contract lookups for many subscriptions (of any organizations) in a few queries. */
export async function contractResolversOf(
  em: EntityManager,
  subscriptions: readonly { organization_id: string; account_id: string; time_zone: string }[],
): Promise<(subscription: { organization_id: string; account_id: string; time_zone: string }) => AccountContracts> {
  const accountIds = [...new Set(subscriptions.map((row) => row.account_id))];
  const rows =
    accountIds.length > 0
      ? await em.find(ContractEntity, { account_id: { $in: accountIds } }, { orderBy: [...CONTRACT_ORDER] })
      : [];
  const byOrganization = new Map<string, typeof rows>();
  for (const row of rows)
    byOrganization.set(row.organization_id, [...(byOrganization.get(row.organization_id) ?? []), row]);
  const byAccount = new Map<string, ContractView[]>();
  for (const [organizationId, ofOrganization] of byOrganization) {
    for (const view of await loadContractViews(em, organizationId, ofOrganization)) {
      const key = `${organizationId}:${view.account}`;
      byAccount.set(key, [...(byAccount.get(key) ?? []), view]);
    }
  }
  return (subscription) =>
    resolverOf(
      byAccount.get(`${subscription.organization_id}:${subscription.account_id}`) ?? [],
      subscription.time_zone,
    );
}
