import type { EntityManager } from '@mikro-orm/postgresql';
import { type ActivityRecord, INVOICE_ACTIVITY_TYPES } from '../domain/activity-ledger.js';
import { placeholders, type SqlStatement, setFromExcluded, valuesOf } from './sql-rows.js';

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
  subscriptions: readonly string[];
  /** Subscriptions cancelled with cancel_invalid: their invoice activities are dropped too. */
  droppingAll: readonly string[];
}

/**
 * The activities a batch of subscription changes reads or changes, in one statement: those that
 * move MRR of the accounts (rederiveAccountActivities reads them) and of the subscriptions
 * (saveActivity and dropPlannedExcept), and every one of a subscription to drop whole.
 */
export async function activitiesInScope(
  em: EntityManager,
  scope: ActivityScope,
): Promise<Array<{ record: ActivityRecord; seq: number }>> {
  const accountIds = [...new Set(scope.accounts.map((account) => account.accountId))];
  const organizationIds = [...new Set(scope.accounts.map((account) => account.organizationId))];
  if (accountIds.length === 0 && scope.subscriptions.length === 0) return [];
  const parts: string[] = [];
  const params: unknown[] = [];
  if (accountIds.length > 0) {
    parts.push(
      `(organization_id in (${placeholders(organizationIds.length)}) and account_id in (${placeholders(accountIds.length)}))`,
    );
    params.push(...organizationIds, ...accountIds);
  }
  if (scope.subscriptions.length > 0) {
    parts.push(`subscription_id in (${placeholders(scope.subscriptions.length)})`);
    params.push(...scope.subscriptions);
  }
  const droppingAll =
    scope.droppingAll.length > 0 ? ` or subscription_id in (${placeholders(scope.droppingAll.length)})` : '';
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select * from activity
      where ((${parts.join(' or ')}) and type not in (${placeholders(INVOICE_ACTIVITY_TYPES.length)}))${droppingAll}`,
    [...params, ...INVOICE_ACTIVITY_TYPES, ...scope.droppingAll],
  );
  return rows.map((row) => {
    const record = Object.fromEntries(COLUMNS.map((column) => [column, row[column]])) as unknown as ActivityRecord;
    for (const column of DATES) record[column] = new Date(row[column] as string);
    return { record, seq: Number(row.seq) };
  });
}

/** The names of churn reasons (`organization/uuid` → name) of the organizations, those known. */
export async function churnReasonNames(
  em: EntityManager,
  reasons: ReadonlyArray<{ organizationId: string; reasonId: string }>,
): Promise<Map<string, string>> {
  if (reasons.length === 0) return new Map();
  const rows = await em.execute<Array<{ id: string; organization_id: string; name: string }>>(
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
  const values = valuesOf(records, COLUMNS);
  return { sql: `insert into activity (${COLUMNS.join(', ')}) values ${values.sql}`, params: values.params };
}

/** The write of stored activities changed by subscription changes (only what those change); null for none. */
export function activityUpdates(records: readonly ActivityRecord[]): SqlStatement | null {
  if (records.length === 0) return null;
  const values = valuesOf(records, COLUMNS);
  return {
    sql: `insert into activity (${COLUMNS.join(', ')}) values ${values.sql}
     on conflict (id) do update set ${setFromExcluded(CHANGEABLE)}`,
    params: values.params,
  };
}
