import { randomUUID } from 'node:crypto';
import { applyWrite, isUuid, type PageSpec, resolveOrdering, type Write } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { findPlanTerms } from '../db/catalog-store.js';
import { contractView, loadContractViews, requireContract } from '../db/contract-store.js';
import { ContractEntity, type ContractRow } from '../db/entities/contract.entity.js';
import { ContractTierEntity } from '../db/entities/contract-tier.entity.js';
import { CONTRACT_SHAPE, type ContractFields, contractViolations } from '../domain/catalog/contract-fields.js';
import type { ContractView } from '../domain/catalog/contract-view.js';
import { publishContractEvent } from '../events/contract-events.js';
import { type ChangeScope, requireOrganization, runChange } from './change-transaction.js';
import type { SubscriptionsDeps } from './deps.js';

const CONTRACT_ORDERING: Readonly<Record<string, string>> = {
  start_date: 'start_date',
  end_date: 'end_date',
  created_date: 'created_at',
};

/** A uuid from a path (the account uuid the gateway resolved, a tier id); anything else names nothing: 404. */
export function requireUuid(value: string): string {
  if (!isUuid(value)) throw AppError.notFound();
  return value;
}

/** The account uuid the gateway resolved from the path's code. */
export const requireAccountId = requireUuid;

const currentFields = (row: ContractRow): ContractFields => ({
  plan_terms: row.plan_terms_id,
  start_date: row.start_date,
  end_date: row.end_date ?? null,
  commitment_length: row.commitment_length,
  exclusive_tiers: row.exclusive_tiers,
});

async function prepareContractFields(
  scope: ChangeScope,
  current: ContractFields | null,
  write: Write<ContractFields>,
  mode: 'create' | 'replace' | 'patch',
): Promise<ContractFields> {
  const applied = applyWrite(CONTRACT_SHAPE, current, write, mode);
  if (applied.violations.length > 0) throw AppError.invalid(applied.violations);
  const fields = applied.fields as ContractFields;
  const violations = contractViolations(fields);
  if (violations.length > 0) throw AppError.invalid(violations);
  if (!(await findPlanTerms(scope.em, scope.organizationId, fields.plan_terms))) {
    throw AppError.invalidField('plan_terms', `Invalid pk "${fields.plan_terms}" - object does not exist.`);
  }
  return fields;
}

export async function createContract(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  write: Write<ContractFields>,
): Promise<ContractView> {
  return runChange(deps, context, async (scope) => {
    const accountId = requireAccountId(account);
    const fields = await prepareContractFields(scope, null, write, 'create');
    const row = scope.em.create(ContractEntity, {
      id: randomUUID(),
      organization_id: scope.organizationId,
      account_id: accountId,
      plan_terms_id: fields.plan_terms,
      start_date: fields.start_date,
      end_date: fields.end_date,
      commitment_length: fields.commitment_length,
      exclusive_tiers: fields.exclusive_tiers,
      created_at: scope.now,
      updated_at: scope.now,
    });
    await scope.em.flush();
    const view = await contractView(scope.em, scope.organizationId, row);
    scope.audit('contract.create', 'contract', row.id, { account: accountId, plan_terms: row.plan_terms_id });
    publishContractEvent(scope, 'contract.created', view);
    return view;
  });
}

/** PUT (`replace`: plan_terms and start_date must be sent; the rest falls back to defaults) or PATCH. */
export async function updateContract(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  uuid: string,
  write: Write<ContractFields>,
  replace: boolean,
): Promise<ContractView> {
  return runChange(deps, context, async (scope) => {
    const row = await requireContract(scope.em, scope.organizationId, requireAccountId(account), uuid, true);
    const current = replace ? null : currentFields(row);
    const fields = await prepareContractFields(scope, current, write, replace ? 'replace' : 'patch');
    scope.em.assign(row, {
      plan_terms_id: fields.plan_terms,
      start_date: fields.start_date,
      end_date: fields.end_date,
      commitment_length: fields.commitment_length,
      exclusive_tiers: fields.exclusive_tiers,
      updated_at: scope.now,
    });
    await scope.em.flush();
    const view = await contractView(scope.em, scope.organizationId, row);
    scope.audit(replace ? 'contract.replace' : 'contract.update', 'contract', row.id, {
      fields: [...write.present],
    });
    publishContractEvent(scope, 'contract.updated', view);
    return view;
  });
}

/** Removes the contract with its tiers; the event carries the last state. */
export async function deleteContract(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  uuid: string,
): Promise<void> {
  await runChange(deps, context, async (scope) => {
    const row = await requireContract(scope.em, scope.organizationId, requireAccountId(account), uuid, true);
    const lastState = await contractView(scope.em, scope.organizationId, row);
    await scope.em.nativeDelete(ContractTierEntity, { organization_id: scope.organizationId, contract_id: row.id });
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('contract.delete', 'contract', row.id, { account: row.account_id, plan_terms: row.plan_terms_id });
    publishContractEvent(scope, 'contract.deleted', lastState);
  });
}

export async function getContract(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  uuid: string,
): Promise<ContractView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const row = await requireContract(em, organizationId, requireAccountId(account), uuid);
  return contractView(em, organizationId, row);
}

export async function listContracts(
  deps: SubscriptionsDeps,
  context: RequestContext,
  account: string,
  page: PageSpec,
): Promise<{ count: number; contracts: ContractView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { column, direction } = resolveOrdering(page.ordering || 'created_date', CONTRACT_ORDERING, 'created_date');
  const [rows, count] = await em.findAndCount(
    ContractEntity,
    { organization_id: organizationId, account_id: requireAccountId(account) },
    {
      orderBy: [{ [column]: direction }, { id: 'asc' }],
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    },
  );
  return { count, contracts: await loadContractViews(em, organizationId, rows) };
}
