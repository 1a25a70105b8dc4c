import type { EntityManager } from '@mikro-orm/postgresql';
import { type AccountBudgetFields, type AccountBudgetView, budgetKey } from '../domain/account-budget.js';
import { AccountBudgetEntity, type AccountBudgetRow } from './entities/account-budget.entity.js';

export function budgetViewOf(row: AccountBudgetRow): AccountBudgetView {
  return {
    id: row.id,
    budget_id: row.budget_id,
    erp_account: {
      uuid: row.erp_account_uuid,
      name: row.erp_account_name,
      display_name: row.erp_account_display_name,
      account_number: row.erp_account_number,
      vat_code: row.erp_account_vat_code,
      account_type: row.erp_account_type,
      totals_from: row.erp_account_totals_from ?? null,
      totals_to: row.erp_account_totals_to ?? null,
    },
    start_date: row.start_date,
    end_date: row.end_date,
    start_amount: row.start_amount,
    calculated_amount: row.calculated_amount,
  };
}

function columnsOf(budget: AccountBudgetFields) {
  const account = budget.erp_account;
  return {
    budget_id: budget.budget_id,
    erp_account_uuid: account.uuid,
    erp_account_name: account.name,
    erp_account_display_name: account.display_name,
    erp_account_number: account.account_number,
    erp_account_vat_code: account.vat_code,
    erp_account_type: account.account_type,
    erp_account_totals_from: account.totals_from,
    erp_account_totals_to: account.totals_to,
    start_date: budget.start_date,
    end_date: budget.end_date,
    start_amount: budget.start_amount,
    calculated_amount: budget.calculated_amount,
  };
}

/** One page of the organization's budgets, oldest id first, optionally of one budget_id. */
export function findBudgetPage(
  em: EntityManager,
  organizationId: string,
  budgetId: string | undefined,
  page: { limit: number; offset: number },
): Promise<[AccountBudgetRow[], number]> {
  return em.findAndCount(
    AccountBudgetEntity,
    { organization_id: organizationId, ...(budgetId !== undefined ? { budget_id: budgetId } : {}) },
    { orderBy: { id: 'asc' }, limit: page.limit, offset: page.offset },
  );
}

export function findBudget(em: EntityManager, organizationId: string, id: number): Promise<AccountBudgetRow | null> {
  return em.findOne(AccountBudgetEntity, { organization_id: organizationId, id });
}

/**
 * Makes the organization's budgets the given ones: rows with the same identity (budgetKey) are
 * updated and keep their id, new ones are added, the rest removed. Flushed by the caller.
 */
export async function replaceBudgets(
  em: EntityManager,
  organizationId: string,
  budgets: readonly AccountBudgetFields[],
  now: Date,
): Promise<{ rows: AccountBudgetRow[]; added: number; updated: number; removed: number }> {
  const existing = await em.find(AccountBudgetEntity, { organization_id: organizationId });
  const byKey = new Map(existing.map((row) => [budgetKey(budgetViewOf(row)), row]));
  const rows: AccountBudgetRow[] = [];
  let added = 0;
  for (const budget of budgets) {
    const key = budgetKey(budget);
    const row = byKey.get(key);
    if (row) {
      em.assign(row, { ...columnsOf(budget), imported_at: now });
      byKey.delete(key);
      rows.push(row);
    } else {
      rows.push(
        em.create(AccountBudgetEntity, { organization_id: organizationId, ...columnsOf(budget), imported_at: now }),
      );
      added += 1;
    }
  }
  for (const row of byKey.values()) em.remove(row);
  return { rows, added, updated: budgets.length - added, removed: byKey.size };
}
