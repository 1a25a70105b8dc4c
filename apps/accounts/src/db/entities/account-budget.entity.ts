import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An ERP account budget the organization imported (admin `import-account-budgets`; api-spec "ERP
 * account budget"), with its ERP account inline. `id` is the integer of
 * /api/v1/account-budgets/{id}/; a row imported again (same budget_id, account number and start
 * date) keeps it.
 */
export const AccountBudgetEntity = defineEntity({
  name: 'AccountBudget',
  tableName: 'account_budget',
  uniques: [
    {
      name: 'account_budget_identity_unique',
      properties: ['organization_id', 'budget_id', 'erp_account_number', 'start_date'],
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    organization_id: p.uuid(),
    budget_id: p.string().length(128),
    erp_account_uuid: p.uuid(),
    erp_account_name: p.string().length(256),
    erp_account_display_name: p.string().length(256),
    erp_account_number: p.integer(),
    erp_account_vat_code: p.string().length(32),
    erp_account_type: p.string().length(32),
    erp_account_totals_from: p.integer().nullable(),
    erp_account_totals_to: p.integer().nullable(),
    /** YYYY-MM-DD. */
    start_date: p.string().length(10),
    end_date: p.string().length(10),
    start_amount: p.decimal('string').precision(20).scale(2),
    calculated_amount: p.decimal('string').precision(20).scale(2),
    imported_at: p.datetime(),
  },
});

export type AccountBudgetRow = InferEntity<typeof AccountBudgetEntity>;
