import type { RequestContext } from '@billing/observability';
import { findAccountIds, findAccountSummaryRows } from '../db/account-summaries-query.js';
import { type AccountListFilter, checkAccountListFilter } from '../domain/account-list.js';
import { type AccountSummary, accountSummary } from '../domain/account-summary.js';
import { lookupUuids } from '../domain/uuid.js';
import { requireOrganization } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

/**
 * Summaries of the organization's accounts named by uuid or code, for embedding in other objects.
 * Names that match nothing (unknown, malformed, another organization's) are left out: the caller
 * decides what a missing account means.
 */
export async function getAccountSummaries(
  deps: AccountsDeps,
  context: RequestContext,
  uuids: readonly string[],
  codes: readonly string[],
): Promise<AccountSummary[]> {
  const organizationId = requireOrganization(context);
  const rows = await findAccountSummaryRows(deps.orm.em.fork(), organizationId, lookupUuids(uuids), [
    ...new Set(codes),
  ]);
  return rows.map((row) =>
    accountSummary(row.id, {
      code: row.code,
      company_name: row.company_name ?? null,
      first_name: row.first_name ?? null,
      middle_name: row.middle_name ?? null,
      last_name: row.last_name ?? null,
      type: row.type ?? null,
      default_payment_terms: row.default_payment_terms ?? null,
    }),
  );
}

/** Every account uuid of the organization the account list's filter matches. */
export async function listAccountUuids(
  deps: AccountsDeps,
  context: RequestContext,
  filter: AccountListFilter,
): Promise<string[]> {
  return findAccountIds(deps.orm.em.fork(), requireOrganization(context), checkAccountListFilter(filter));
}
