import type { accountsV1 } from '@billing/proto';
import { EINVOICE_TARGET_FIELDS } from '@billing/reference-data';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { nullable, tagged } from '../shared/representation.js';
import {
  AccountBudgetFilters,
  AccountBudgetSchema,
  BudgetIdParams,
  EinvoiceFieldMappingSchema,
} from './organization-data-schemas.js';

const BUDGETS = '/api/v1/account-budgets/';
const BUDGETS_TWIN = '/api/v1/account_budgets/';
const MAPPINGS = '/api/v1/einvoice-field-mappings/';
const MAPPINGS_TWIN = '/api/v1/einvoice_field_mappings/';
const TAGS = ['imported data'];
const IMPORTED =
  'Read-only: the organization imports them with the admin command line (docs/api.md "Imported data"); ' +
  'empty until then.';

function presentBudget(budget: accountsV1.AccountBudget) {
  const account = budget.erp_account!;
  return tagged('account_budget', {
    budget_id: budget.budget_id,
    erp_account: {
      uuid: account.uuid,
      name: account.name,
      display_name: account.display_name,
      account_number: account.account_number,
      account_number_str: String(account.account_number),
      vat_code: account.vat_code,
      account_type: account.account_type,
      totals_from: nullable(account.totals_from),
      totals_to: nullable(account.totals_to),
    },
    start_date: budget.start_date,
    end_date: budget.end_date,
    start_amount: budget.start_amount,
    calculated_amount: budget.calculated_amount,
  });
}

function presentMapping(mapping: Omit<accountsV1.EinvoiceFieldMapping, 'uuid'> & { uuid: string | null }) {
  return tagged('einvoice_field_mapping', {
    uuid: mapping.uuid,
    format: mapping.format,
    target_field: mapping.target_field,
    source_type: mapping.source_type,
    source_builtin_field: mapping.source_builtin_field,
    source_custom_field: nullable(mapping.source_custom_field),
  });
}

/** Every field a mapping can target, each as the mapping that fills it by default (uuid null). */
const AVAILABLE_FIELDS = EINVOICE_TARGET_FIELDS.map((field) =>
  presentMapping({
    uuid: null,
    format: field.format,
    target_field: field.target_field,
    source_type: 'builtin',
    source_builtin_field: field.default_source ?? '',
  }),
);

/**
 * ERP account budgets and e-invoice field mappings (gaps.md §10): data the organization imports,
 * read here; served by the accounts service. The available fields are reference data.
 */
export function importedDataRoutes({ organizationData }: ServiceClients): Route[] {
  const budgets = defineListRoute({
    path: BUDGETS,
    aliases: [BUDGETS_TWIN],
    operationId: 'listAccountBudgets',
    summary: 'ERP account budgets',
    description: `${IMPORTED} In import order (by id). budget_id: exact match.`,
    tags: TAGS,
    item: AccountBudgetSchema,
    query: AccountBudgetFilters,
    handler: async ({ query, page }) => {
      const reply = await organizationData.call('listAccountBudgets', {
        page: pageOf(page),
        budget_id: query.budget_id,
      });
      return { count: reply.count, results: reply.account_budgets.map(presentBudget) };
    },
  });

  const budget = defineRoute({
    method: 'get',
    path: `${BUDGETS}{id}/`,
    aliases: [`${BUDGETS_TWIN}{id}/`],
    operationId: 'getAccountBudget',
    summary: 'One ERP account budget, by the integer id the import printed',
    tags: TAGS,
    params: BudgetIdParams,
    response: { status: 200, schema: AccountBudgetSchema },
    handler: async ({ params }) =>
      presentBudget((await organizationData.call('getAccountBudget', { id: Number(params.id) })).account_budget!),
  });

  const mappings = defineListRoute({
    path: MAPPINGS,
    aliases: [MAPPINGS_TWIN],
    operationId: 'listEinvoiceFieldMappings',
    summary: 'E-invoice field mappings',
    description: `${IMPORTED} By format and target field.`,
    tags: TAGS,
    item: EinvoiceFieldMappingSchema,
    handler: async ({ page }) => {
      const reply = await organizationData.call('listEinvoiceFieldMappings', { page: pageOf(page) });
      return { count: reply.count, results: reply.einvoice_field_mappings.map(presentMapping) };
    },
  });

  const availableFields = defineListRoute({
    path: `${MAPPINGS}available-fields/`,
    aliases: [`${MAPPINGS_TWIN}available_fields/`],
    operationId: 'listEinvoiceAvailableFields',
    summary: 'The fields a mapping can target, each with the value filling it by default',
    description:
      'One record per format and target field, shaped as a mapping with uuid null: source_builtin_field is ' +
      'the default source ("" when left empty by default).',
    tags: TAGS,
    item: EinvoiceFieldMappingSchema,
    handler: ({ page }) => {
      const start = (page.page - 1) * page.pageSize;
      return { count: AVAILABLE_FIELDS.length, results: AVAILABLE_FIELDS.slice(start, start + page.pageSize) };
    },
  });

  return [budgets, budget, mappings, availableFields];
}
