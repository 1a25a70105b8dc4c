import { inTransaction } from '@billing/db';
import type { PageSpec } from '@billing/domain-kit';
import { AppError, type FieldViolation } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import { budgetViewOf, findBudget, findBudgetPage, replaceBudgets } from '../db/account-budget-store.js';
import { findMappingPage, mappingViewOf, replaceMappings } from '../db/einvoice-field-mapping-store.js';
import { type AccountBudgetView, budgetsFromRows } from '../domain/account-budget.js';
import { type EinvoiceFieldMappingFields, mappingsFromRows } from '../domain/einvoice-field-mapping.js';
import type { ImportRow } from '../domain/import-rows.js';
import { requireOrganization } from './change-transaction.js';
import type { AccountsDeps, IdentityDeps } from './deps.js';
import { audit, requireOrganizationRow } from './organizations.js';

/** What an import changed: rows added, updated (kept their id), removed (not in the file). */
export interface ImportCounts {
  imported: number;
  added: number;
  updated: number;
  removed: number;
}

const NOTHING_IMPORTED = 'The file has invalid rows; nothing was imported.';

const pageWindow = (page: PageSpec) => ({ limit: page.pageSize, offset: (page.page - 1) * page.pageSize });

/**
 * One import, in one transaction (all or nothing), the organization's row locked so two imports
 * apply one after the other: the rows are checked whole, then `replace` makes them the
 * organization's set, and one audit row records the counts.
 */
async function importRows<Record, Replaced extends Omit<ImportCounts, 'imported'>>(
  deps: IdentityDeps,
  organizationId: string,
  action: string,
  parse: () => { records: Record[]; violations: FieldViolation[] },
  replace: (em: EntityManager, records: Record[], now: Date) => Promise<Replaced>,
): Promise<ImportCounts & { replaced: Replaced }> {
  return inTransaction(deps.orm, async (em) => {
    await requireOrganizationRow(em, organizationId, true);
    const { records, violations } = parse();
    if (violations.length > 0) throw AppError.invalid(violations, NOTHING_IMPORTED);
    const now = deps.clock.now();
    const replaced = await replace(em, records, now);
    await em.flush();
    const counts = {
      imported: records.length,
      added: replaced.added,
      updated: replaced.updated,
      removed: replaced.removed,
    };
    audit(em, organizationId, now, action, 'organization', organizationId, counts);
    await em.flush();
    return { ...counts, replaced };
  });
}

/** import-account-budgets: the file's rows become the organization's budgets (ids printed). */
export async function importAccountBudgets(
  deps: IdentityDeps,
  organizationId: string,
  rows: readonly ImportRow[],
): Promise<ImportCounts & { account_budgets: AccountBudgetView[] }> {
  const { replaced, ...counts } = await importRows(
    deps,
    organizationId,
    'account_budgets.import',
    () => budgetsFromRows(rows, organizationId),
    (em, records, now) => replaceBudgets(em, organizationId, records, now),
  );
  return { ...counts, account_budgets: replaced.rows.map(budgetViewOf) };
}

/** import-einvoice-field-mappings: the file's rows become the organization's mappings. */
export async function importEinvoiceFieldMappings(
  deps: IdentityDeps,
  organizationId: string,
  rows: readonly ImportRow[],
): Promise<ImportCounts & { einvoice_field_mappings: EinvoiceFieldMappingFields[] }> {
  const { replaced, ...counts } = await importRows(
    deps,
    organizationId,
    'einvoice_field_mappings.import',
    () => mappingsFromRows(rows, organizationId),
    async (em, records, now) => ({ ...(await replaceMappings(em, organizationId, records, now)), records }),
  );
  return { ...counts, einvoice_field_mappings: replaced.records };
}

export async function listAccountBudgets(
  deps: AccountsDeps,
  context: RequestContext,
  budgetId: string | undefined,
  page: PageSpec,
): Promise<{ count: number; budgets: AccountBudgetView[] }> {
  const [rows, count] = await findBudgetPage(
    deps.orm.em.fork(),
    requireOrganization(context),
    budgetId,
    pageWindow(page),
  );
  return { count, budgets: rows.map(budgetViewOf) };
}

/** The organization's budget with that id, or 404 (another organization's too). */
export async function getAccountBudget(
  deps: AccountsDeps,
  context: RequestContext,
  id: number,
): Promise<AccountBudgetView> {
  const row = await findBudget(deps.orm.em.fork(), requireOrganization(context), id);
  if (!row) throw AppError.notFound();
  return budgetViewOf(row);
}

export async function listEinvoiceFieldMappings(
  deps: AccountsDeps,
  context: RequestContext,
  page: PageSpec,
): Promise<{ count: number; mappings: EinvoiceFieldMappingFields[] }> {
  const [rows, count] = await findMappingPage(deps.orm.em.fork(), requireOrganization(context), pageWindow(page));
  return { count, mappings: rows.map(mappingViewOf) };
}
