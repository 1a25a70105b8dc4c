import { selectBound } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { MrrTotalsChange, SubscriptionMrrColumns } from '../domain/subscription-mrr.js';
import type { SubscriptionMrrRow } from './entities/subscription-mrr.entity.js';
import { placeholders, rowsAsJson, type SqlStatement, setFromExcluded } from './sql-rows.js';

/**
 * The stored MRR rows of the subscriptions, locked for this transaction's changes (in id order), in
 * one statement; plain rows, not entities (the batch writes them back with subscriptionMrrSaves).
 */
export async function lockSubscriptionMrrs(
  em: EntityManager,
  subscriptionIds: readonly string[],
): Promise<Map<string, SubscriptionMrrRow>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await selectBound<SubscriptionMrrRow>(
    em,
    `select * from subscription_mrr where id in (${placeholders(subscriptionIds.length)}) order by id for update`,
    [...subscriptionIds],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

type MrrRow = SubscriptionMrrColumns & { id: string };

const COLUMNS = [
  'id',
  'organization_id',
  'account_id',
  'plan_id',
  'terms_id',
  'status',
  'collection_method',
  'currency',
  'quantity',
  'interval_type',
  'interval_count',
  'has_custom_price',
  'payment_terms',
  'start_date',
  'original_start_date',
  'next_renewal_date',
  'end_date',
  'last_modified_date',
  'mrr',
  'rate',
  'total_mrr',
  'future_mrr',
  'pending_mrr',
  'churn_reason',
  'custom_churn_reason',
  'version',
  'invalid',
] as const satisfies ReadonlyArray<keyof MrrRow>;

/** The save of subscriptions' MRR rows after their changes (new or replacing the stored ones); null for none. */
export function subscriptionMrrSaves(rows: readonly MrrRow[]): SqlStatement | null {
  if (rows.length === 0) return null;
  const json = rowsAsJson('subscription_mrr', rows, COLUMNS);
  return {
    sql: `insert into subscription_mrr (${COLUMNS.join(', ')}) ${json.sql}
     on conflict (id) do update set ${setFromExcluded(COLUMNS.filter((column) => column !== 'id'))}`,
    params: json.params,
  };
}

/** The move of the organizations' totals (one change each); null for none. */
export function mrrTotalsMoves(changes: ReadonlyMap<string, MrrTotalsChange>): SqlStatement | null {
  if (changes.size === 0) return null;
  const rows = [...changes].map(([organization_id, change]) => ({ organization_id, ...change }));
  const json = rowsAsJson('mrr_totals', rows, [
    'organization_id',
    'total_mrr',
    'future_mrr',
    'pending_mrr',
    'subscriptions_count',
  ]);
  return {
    sql: `insert into mrr_totals (organization_id, total_mrr, future_mrr, pending_mrr, subscriptions_count)
       ${json.sql}
       on conflict (organization_id) do update set
         total_mrr = mrr_totals.total_mrr + excluded.total_mrr,
         future_mrr = mrr_totals.future_mrr + excluded.future_mrr,
         pending_mrr = mrr_totals.pending_mrr + excluded.pending_mrr,
         subscriptions_count = mrr_totals.subscriptions_count + excluded.subscriptions_count`,
    params: json.params,
  };
}
