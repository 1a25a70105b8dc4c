import { selectBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountActivityRecord } from '../domain/account-activity-ledger.js';
import { accountKeys } from './key-tables.js';
import { rowsAsJson, rowsPerKey, type SqlStatement, setFromExcluded } from './sql-rows.js';

const COLUMNS = [
  'id',
  'organization_id',
  'account_id',
  'source_id',
  'subscription',
  'type',
  'date',
  'created_date',
  'old_mrr',
  'new_mrr',
  'mrr_change',
  'churn_reason',
  'account_first_subscription_start_date',
  'is_manual',
  'deleted',
  'dropped',
  'account_code',
  'company_name',
] as const satisfies ReadonlyArray<keyof AccountActivityRecord>;

/** What deriving an account's activities again may change on a stored row (rederiveAccountActivities' assigns). */
const CHANGEABLE = [
  'subscription',
  'type',
  'date',
  'old_mrr',
  'new_mrr',
  'mrr_change',
  'churn_reason',
  'account_first_subscription_start_date',
  'dropped',
] as const;

const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

/** The accounts' derived (not manual) activities, in recording order, in one statement. */
export async function derivedAccountActivities(
  em: EntityManager,
  accounts: ReadonlyArray<{ organizationId: string; accountId: string }>,
): Promise<AccountActivityRecord[]> {
  if (accounts.length === 0) return [];
  const perKey = rowsPerKey(accountKeys(accounts), 'account_activity', 'account_id', {
    alias: 'a',
    filter: { sql: 'not t.is_manual', params: [] },
  });
  const rows = await selectBound(em, `select a.* from ${perKey.sql} order by a.seq`, perKey.params);
  return rows.map((row) => {
    const record = Object.fromEntries(
      COLUMNS.map((column) => [column, row[column]]),
    ) as unknown as AccountActivityRecord;
    record.date = new Date(row.date as string);
    record.created_date = new Date(row.created_date as string);
    record.account_first_subscription_start_date = dateOrNull(row.account_first_subscription_start_date);
    return record;
  });
}

/** The original start of every subscription of the accounts (the first one names the account's first start). */
export async function subscriptionStartsOfAccounts(
  em: EntityManager,
  accounts: ReadonlyArray<{ organizationId: string; accountId: string }>,
): Promise<Array<{ id: string; organizationId: string; accountId: string; originalStart: Date | null }>> {
  if (accounts.length === 0) return [];
  const perKey = rowsPerKey(accountKeys(accounts), 'subscription_mrr', 'account_id', { alias: 's' });
  const rows = await selectBound<{
    id: string;
    organization_id: string;
    account_id: string;
    original_start_date: string | null;
  }>(em, `select s.id, s.organization_id, s.account_id, s.original_start_date from ${perKey.sql}`, perKey.params);
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organization_id,
    accountId: row.account_id,
    originalStart: dateOrNull(row.original_start_date),
  }));
}

/** The insert of new derived account activities, in the given order (their seq follows it); null for none. */
export function accountActivityInserts(records: readonly AccountActivityRecord[]): SqlStatement | null {
  if (records.length === 0) return null;
  const rows = rowsAsJson('account_activity', records, COLUMNS);
  return { sql: `insert into account_activity (${COLUMNS.join(', ')}) ${rows.sql}`, params: rows.params };
}

/** The write of stored derived account activities derived otherwise now (only what a derivation sets); null for none. */
export function accountActivityUpdates(records: readonly AccountActivityRecord[]): SqlStatement | null {
  if (records.length === 0) return null;
  const rows = rowsAsJson('account_activity', records, COLUMNS);
  return {
    sql: `insert into account_activity (${COLUMNS.join(', ')}) ${rows.sql}
     on conflict (id) do update set ${setFromExcluded(CHANGEABLE)}`,
    params: rows.params,
  };
}
