import { AppError } from '@billing/errors';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContractView, TierView } from '../domain/catalog/contract-view.js';
import { presentPrice } from '../domain/catalog/prices.js';
import type { DiscountType } from '../domain/pricing.js';
import { ContractEntity, type ContractRow } from './entities/contract.entity.js';
import { ContractTierEntity, type ContractTierRow } from './entities/contract-tier.entity.js';

export function toTierView(row: ContractTierRow): TierView {
  return {
    id: row.id,
    minimum_quantity: row.minimum_quantity,
    maximum_quantity: row.maximum_quantity ?? null,
    discount: presentPrice(row.discount),
    discount_type: row.discount_type as DiscountType,
  };
}

const TIER_ORDER = [{ created_at: 'asc' }, { id: 'asc' }] as const;

/** Contracts with their tiers (oldest first), in two queries whatever the number of contracts. */
export async function loadContractViews(
  em: EntityManager,
  organizationId: string,
  rows: ContractRow[],
): Promise<ContractView[]> {
  if (rows.length === 0) return [];
  const tiers = await em.find(
    ContractTierEntity,
    { organization_id: organizationId, contract_id: { $in: rows.map((row) => row.id) } },
    { orderBy: [...TIER_ORDER] },
  );
  return rows.map((row) => ({
    uuid: row.id,
    account: row.account_id,
    plan_terms: row.plan_terms_id,
    start_date: row.start_date,
    end_date: row.end_date ?? null,
    commitment_length: row.commitment_length,
    exclusive_tiers: row.exclusive_tiers,
    tiers: tiers.filter((tier) => tier.contract_id === row.id).map(toTierView),
  }));
}

export async function contractView(em: EntityManager, organizationId: string, row: ContractRow): Promise<ContractView> {
  const [view] = await loadContractViews(em, organizationId, [row]);
  return view!;
}

/**
 * The organization's contract of that account, or 404 (also for another organization's, or
 * another account's). `lock`: FOR UPDATE, so changes of one contract and its tiers (and their
 * events) happen one after the other.
 */
export async function requireContract(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  uuid: string,
  lock = false,
): Promise<ContractRow> {
  const row = await em.findOne(
    ContractEntity,
    { organization_id: organizationId, account_id: accountId, id: uuid },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!row) throw AppError.notFound();
  return row;
}

export async function requireTier(
  em: EntityManager,
  organizationId: string,
  contractId: string,
  id: string,
): Promise<ContractTierRow> {
  const row = await em.findOne(ContractTierEntity, { organization_id: organizationId, contract_id: contractId, id });
  if (!row) throw AppError.notFound();
  return row;
}
