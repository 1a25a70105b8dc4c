import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { CheckedAccountListFilter } from '../domain/account-list.js';
import { AccountEntity, type AccountRow } from './entities/account.entity.js';
import { buildWhere } from './list-accounts-query.js';

const SUMMARY_COLUMNS = [
  'id',
  'code',
  'company_name',
  'first_name',
  'middle_name',
  'last_name',
  'type',
  'default_payment_terms',
] as const;

export type AccountSummaryRow = Pick<AccountRow, (typeof SUMMARY_COLUMNS)[number]>;

/**
 * The organization's accounts named by id or by code, oldest first, each once: one query however
 * many are asked for, reading only the columns a summary needs.
 */
export async function findAccountSummaryRows(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
  codes: readonly string[],
): Promise<AccountSummaryRow[]> {
  const named: FilterQuery<AccountRow>[] = [];
  if (ids.length > 0) named.push({ id: { $in: [...ids] } });
  if (codes.length > 0) named.push({ code: { $in: [...codes] } });
  if (named.length === 0) return [];
  return em.find(
    AccountEntity,
    { organization_id: organizationId, $or: named },
    { fields: [...SUMMARY_COLUMNS], orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
  );
}

/** The ids of every account of the organization the account list's filter matches, unpaged. */
export async function findAccountIds(
  em: EntityManager,
  organizationId: string,
  filter: CheckedAccountListFilter,
): Promise<string[]> {
  const where = await buildWhere(em, organizationId, filter);
  const rows = await em.find(AccountEntity, where, {
    fields: ['id'],
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => row.id);
}
