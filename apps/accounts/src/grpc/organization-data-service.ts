import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { accountsV1 } from '@billing/proto';
import type { AccountBudgetView } from '../domain/account-budget.js';
import type { EinvoiceFieldMappingFields } from '../domain/einvoice-field-mapping.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import { getAccountBudget, listAccountBudgets, listEinvoiceFieldMappings } from '../use-cases/imported-data.js';
import { listMembers } from '../use-cases/members.js';

function budgetMessage(budget: AccountBudgetView): accountsV1.AccountBudget {
  const { totals_from, totals_to, ...account } = budget.erp_account;
  return {
    ...budget,
    erp_account: {
      ...account,
      ...(totals_from !== null ? { totals_from } : {}),
      ...(totals_to !== null ? { totals_to } : {}),
    },
  };
}

function mappingMessage(mapping: EinvoiceFieldMappingFields): accountsV1.EinvoiceFieldMapping {
  const { source_custom_field, ...rest } = mapping;
  return { ...rest, ...(source_custom_field !== null ? { source_custom_field } : {}) };
}

/** Transport only: decode, call the use case, encode. */
export function organizationDataService(deps: AccountsDeps): GrpcService {
  return unaryService(accountsV1.OrganizationDataServiceService, {
    listMembers: async (request, context) => listMembers(deps, context, pageSpec(request.page)),
    listAccountBudgets: async (request, context) => {
      const { count, budgets } = await listAccountBudgets(deps, context, request.budget_id, pageSpec(request.page));
      return { count, account_budgets: budgets.map(budgetMessage) };
    },
    getAccountBudget: async (request, context) => ({
      account_budget: budgetMessage(await getAccountBudget(deps, context, request.id)),
    }),
    listEinvoiceFieldMappings: async (request, context) => {
      const { count, mappings } = await listEinvoiceFieldMappings(deps, context, pageSpec(request.page));
      return { count, einvoice_field_mappings: mappings.map(mappingMessage) };
    },
  });
}
