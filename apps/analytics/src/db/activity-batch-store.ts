import { selectBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type ActivityRecord, INVOICE_ACTIVITY_TYPES } from '../domain/activity-ledger.js';
import { accountKeys, type SubscriptionRef, subscriptionKeys } from './key-tables.js';
import { placeholders, rowsAsJson, rowsPerKey, type SqlStatement, setFromExcluded } from './sql-rows.js';

const COLUMNS = [
  'id',
  'organization_id',
  'account_id',
  'subscription_id',
  'invoice_id',
  'type',
  'date',
  'created_date',
  'updated_date',
  'is_manual',
  'is_churn',
  'deleted',
  'dropped',
  'planned',
  'plan_key',
  'old_currency',
  'new_currency',
  'old_mrr_in_subscription_currency',
  'new_mrr_in_subscription_currency',
  'old_mrr',
  'new_mrr',
  'mrr_change',
  'old_quantity',
  'new_quantity',
  'old_terms',
  'new_terms',
  'old_plan',
  'new_plan',
  'churn_reason',
  'custom_churn_reason',
] as const satisfies ReadonlyArray<keyof ActivityRecord>;

/** What applying a subscription change may change on a stored activity (saveActivity's and the drops' assigns). */
const CHANGEABLE = COLUMNS.filter(
  (column) =>
    ![
      'id',
      'organization_id',
      'account_id',
      'subscription_id',
      'invoice_id',
      'created_date',
      'is_manual',
      'deleted',
    ].includes(column),
);

const DATES = ['date', 'created_date', 'updated_date'] as const;

/** The accounts and subscriptions a batch of subscription changes reads the activities of. */
export interface ActivityScope {
  accounts: ReadonlyArray<{ organizationId: string; accountId: string }>;
  subscriptions: readonly SubscriptionRef[];
  /** Subscriptions cancelled with cancel_invalid: their invoice activities are dropped too. */
  droppingAll: readonly SubscriptionRef[];
}

/**
 * The activities a batch of subscription changes reads or changes, in one statement: those that
 * move MRR of the accounts (rederiveAccountActivities reads them) and of the subscriptions
 * (saveActivity and dropPlannedExcept), and every one of a subscription to drop whole; in
 * recording order. Each part reads its keys' rows by a lookup per key (rowsPerKey); an activity
 * found by two parts is returned once.
 */
export async function activitiesInScope(
  em: EntityManager,
  scope: ActivityScope,
): Promise<Array<{ record: ActivityRecord; seq: number }>> {
  const movesMrr: SqlStatement = {
    sql: `t.type not in (${placeholders(INVOICE_ACTIVITY_TYPES.length)})`,
    params: [...INVOICE_ACTIVITY_TYPES],
  };
  // The activities of each key on `column`: all of them, or those that move MRR.
  const joined = (keys: SqlStatement, column: string, all: boolean): SqlStatement => {
    const rows = rowsPerKey(keys, 'activity', column, { alias: 'a', ...(all ? {} : { filter: movesMrr }) });
    return { sql: `select a.* from ${rows.sql}`, params: rows.params };
  };
  const parts: SqlStatement[] = [];
  if (scope.accounts.length > 0) parts.push(joined(accountKeys(scope.accounts), 'account_id', false));
  if (scope.subscriptions.length > 0)
    parts.push(joined(subscriptionKeys(scope.subscriptions), 'subscription_id', false));
  if (scope.droppingAll.length > 0) parts.push(joined(subscriptionKeys(scope.droppingAll), 'subscription_id', true));
  if (parts.length === 0) return [];
  const rows = await selectBound(
    em,
    parts.map((part) => `(${part.sql})`).join(' union all '),
    parts.flatMap((part) => part.params),
  );
  const byId = new Map<string, { record: ActivityRecord; seq: number }>();
  for (const row of rows) {
    if (byId.has(row.id as string)) continue;
    const record = Object.fromEntries(COLUMNS.map((column) => [column, row[column]])) as unknown as ActivityRecord;
    for (const column of DATES) record[column] = new Date(row[column] as string);
    byId.set(record.id, { record, seq: Number(row.seq) });
  }
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** The names of churn reasons (`organization/uuid` → name) of the organizations, those known. */
export async function churnReasonNames(
  em: EntityManager,
  reasons: ReadonlyArray<{ organizationId: string; reasonId: string }>,
): Promise<Map<string, string>> {
  if (reasons.length === 0) return new Map();
  const rows = await selectBound<{ id: string; organization_id: string; name: string }>(
    em,
    `select id, organization_id, name from churn_reason where id in (${placeholders(reasons.length)})`,
    reasons.map((reason) => reason.reasonId),
  );
  return new Map(rows.map((row) => [`${row.organization_id}/${row.id}`, row.name]));
}

/** The insert of new activities, in the given order (their seq, the recording order, follows it); null for none. */
export function activityInserts(
  records: ReadonlyArray<Record<(typeof COLUMNS)[number], unknown>>,
): SqlStatement | null {
  if (records.length === 0) return null;
  const rows = rowsAsJson('activity', records, COLUMNS);
  return { sql: `insert into activity (${COLUMNS.join(', ')}) ${rows.sql}`, params: rows.params };
}

/** The write of stored activities changed by subscription changes (only what those change); null for none. */
export function activityUpdates(records: readonly ActivityRecord[]): SqlStatement | null {
  if (records.length === 0) return null;
  const rows = rowsAsJson('activity', records, COLUMNS);
  return {
    sql: `insert into activity (${COLUMNS.join(', ')}) ${rows.sql}
     on conflict (id) do update set ${setFromExcluded(CHANGEABLE)}`,
    params: rows.params,
  };
}
