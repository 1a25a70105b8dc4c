import { randomUUID } from 'node:crypto';
import { applyWrite, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { contractView, requireContract, requireTier, toTierView } from '../db/contract-store.js';
import type { ContractRow } from '../db/entities/contract.entity.js';
import { ContractTierEntity, type ContractTierRow } from '../db/entities/contract-tier.entity.js';
import { TIER_SHAPE, type TierFields, tierViolations } from '../domain/catalog/contract-fields.js';
import type { TierView } from '../domain/catalog/contract-view.js';
import { storedPrice } from '../domain/catalog/prices.js';
import { publishContractEvent } from '../events/contract-events.js';
import { type ChangeScope, requireOrganization, runChange } from './change-transaction.js';
import { requireAccountId, requireUuid } from './contracts.js';
import type { SubscriptionsDeps } from './deps.js';

const TIER_ORDERING: Readonly<Record<string, string>> = {
  minimum_quantity: 'minimum_quantity',
  created_date: 'created_at',
};

export interface TierIds {
  account: string;
  contract: string;
  id: string;
}

const currentFields = (row: ContractTierRow): TierFields => ({
  minimum_quantity: row.minimum_quantity,
  maximum_quantity: row.maximum_quantity ?? null,
  discount: row.discount,
  discount_type: row.discount_type as TierFields['discount_type'],
});

function prepareTierFields(
  current: TierFields | null,
  write: Write<TierFields>,
  mode: 'create' | 'replace' | 'patch',
): TierFields {
  const applied = applyWrite(TIER_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const fields = applied.fields as TierFields;
  const violations = tierViolations(fields);
  if (violations.length > 0) throw AppError.invalid(violations);
  return fields;
}

/** A tier change is a change of its contract: the contract row is locked and contract.updated published. */
async function contractChanged(scope: ChangeScope, contract: ContractRow): Promise<void> {
  contract.updated_at = scope.now;
  await scope.em.flush();
  publishContractEvent(scope, 'contract.updated', await contractView(scope.em, scope.organizationId, contract));
}

const lockedContract = (scope: ChangeScope, account: string, contract: string) =>
  requireContract(scope.em, scope.organizationId, requireAccountId(account), contract, true);

export async function createTier(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  contract: string,
  write: Write<TierFields>,
): Promise<TierView> {
  return runChange(deps, context, async (scope) => {
    const contractRow = await lockedContract(scope, account, contract);
    const fields = prepareTierFields(null, write, 'create');
    const row = scope.em.create(ContractTierEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      contract_id: contractRow.id,
      minimum_quantity: fields.minimum_quantity,
      maximum_quantity: fields.maximum_quantity,
      discount: storedPrice(fields.discount),
      discount_type: fields.discount_type,
      created_at: scope.now,
      updated_at: scope.now,
    });
    await scope.em.flush();
    scope.audit('contract_tier.create', 'contract_tier', row.id, { contract: contractRow.id });
    await contractChanged(scope, contractRow);
    return toTierView(row);
  });
}

/** PUT (`replace`: minimum_quantity, discount and discount_type must be sent) or PATCH. */
export async function updateTier(
  deps: SubscriptionsDeps,
  context: RequestContext,
  ids: TierIds,
  write: Write<TierFields>,
  replace: boolean,
): Promise<TierView> {
  return runChange(deps, context, async (scope) => {
    const contractRow = await lockedContract(scope, ids.account, ids.contract);
    const row = await requireTier(scope.em, scope.organizationId, contractRow.id, requireUuid(ids.id));
    const fields = prepareTierFields(replace ? null : currentFields(row), write, replace ? 'replace' : 'patch');
    scope.em.assign(row, {
      minimum_quantity: fields.minimum_quantity,
      maximum_quantity: fields.maximum_quantity,
      discount: storedPrice(fields.discount),
      discount_type: fields.discount_type,
      updated_at: scope.now,
    });
    await scope.em.flush();
    scope.audit(replace ? 'contract_tier.replace' : 'contract_tier.update', 'contract_tier', row.id, {
      contract: contractRow.id,
      fields: [...write.present],
    });
    await contractChanged(scope, contractRow);
    return toTierView(row);
  });
}

export async function deleteTier(deps: SubscriptionsDeps, context: RequestContext, ids: TierIds): Promise<void> {
  await runChange(deps, context, async (scope) => {
    const contractRow = await lockedContract(scope, ids.account, ids.contract);
    const row = await requireTier(scope.em, scope.organizationId, contractRow.id, requireUuid(ids.id));
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('contract_tier.delete', 'contract_tier', row.id, { contract: contractRow.id });
    await contractChanged(scope, contractRow);
  });
}

export async function getTier(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  contract: string,
  id: string,
): Promise<TierView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const contractRow = await requireContract(em, organizationId, requireAccountId(account), contract);
  return toTierView(await requireTier(em, organizationId, contractRow.id, requireUuid(id)));
}

export async function listTiers(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  contract: string,
  page: PageSpec,
): Promise<{ count: number; tiers: TierView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const contractRow = await requireContract(em, organizationId, requireAccountId(account), contract);
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', TIER_ORDERING, 'created_date');
  const [rows, count] = await em.findAndCount(
    ContractTierEntity,
    { organization_id: organizationId, contract_id: contractRow.id },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { count, tiers: rows.map(toTierView) };
}
