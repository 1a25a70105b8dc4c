import { randomUUID } from 'node:crypto';
import { money } from '@billing/money';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deriveAccountActivities, type MrrMovement } from '../domain/account-activities.js';
import { accountActivityColumns } from '../domain/account-activity-ledger.js';
import { INVOICE_ACTIVITY_TYPES } from '../domain/activity-ledger.js';
import { shownChurnReason } from '../domain/churn-reason.js';
import { AccountActivityEntity, type AccountActivityRow } from './entities/activity.entity.js';

export { INVOICE_ACTIVITY_TYPES } from '../domain/activity-ledger.js';

/**
 * Derives the account's activities again from its subscriptions' activities that count (not
 * deleted, not dropped, with MRR), and stores the difference: a derived row per causing activity,
 * rows no longer derived marked dropped. Manual account activities are left alone.
 */
export async function rederiveAccountActivities(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  now: Date,
): Promise<void> {
  await em.flush();
  const rows = await em.execute<
    Array<{
      id: string;
      subscription_id: string | null;
      date: Date;
      new_mrr: string | null;
      reason_name: string | null;
      custom_churn_reason: string | null;
    }>
  >(
    `select a.id, a.subscription_id, a.date, a.new_mrr, r.name as reason_name, a.custom_churn_reason
       from activity a
       left join churn_reason r on r.id = a.churn_reason and r.organization_id = a.organization_id
      where a.organization_id = ? and a.account_id = ? and not a.deleted and not a.dropped
        and a.type not in (${INVOICE_ACTIVITY_TYPES.map(() => '?').join(', ')})
      order by a.date, a.seq`,
    [organizationId, accountId, ...INVOICE_ACTIVITY_TYPES],
  );
  const movements: MrrMovement[] = rows.map((row) => ({
    source: row.id,
    subscription: row.subscription_id,
    date: new Date(row.date),
    new_mrr: row.new_mrr === null ? null : money(row.new_mrr),
    churn_reason: shownChurnReason(row.reason_name, row.custom_churn_reason),
  }));
  const drafts = deriveAccountActivities(movements);
  const [first] = await em.execute<Array<{ first: Date | null }>>(
    'select min(original_start_date) as first from subscription_mrr where organization_id = ? and account_id = ?',
    [organizationId, accountId],
  );
  const firstStart = first?.first ? new Date(first.first) : null;
  const existing = await em.find(AccountActivityEntity, {
    organization_id: organizationId,
    account_id: accountId,
    is_manual: false,
  });
  const bySource = new Map(existing.map((row) => [row.source_id, row]));
  const derived = new Set<string>();
  for (const draft of drafts) {
    derived.add(draft.source);
    const columns = accountActivityColumns(draft, firstStart);
    const row = bySource.get(draft.source);
    if (row) em.assign(row, { ...columns, dropped: false });
    else
      em.create(AccountActivityEntity, {
        id: randomUUID(),
        organization_id: organizationId,
        account_id: accountId,
        source_id: draft.source,
        created_date: now,
        is_manual: false,
        deleted: false,
        dropped: false,
        account_code: null,
        company_name: null,
        ...columns,
      } as AccountActivityRow);
  }
  for (const row of existing) {
    if (row.source_id && !derived.has(row.source_id) && !row.dropped) row.dropped = true;
  }
  await em.flush();
}

/**
 * A churn reason's name arrived or changed: the derived churns its subscriptions caused show it
 * (its event may come after the cancellation's: the streams are not ordered against each other).
 * The name wins over a custom reason (shownChurnReason), so it is set as it is.
 */
export async function renameDerivedChurns(
  em: EntityManager,
  organizationId: string,
  churnReasonId: string,
  name: string,
): Promise<void> {
  await em.execute(
    `update account_activity x set churn_reason = ?
       from activity a
      where x.organization_id = ? and not x.is_manual and x.type = 'churn' and x.source_id = a.id
        and a.organization_id = ? and a.churn_reason = ?`,
    [name, organizationId, organizationId, churnReasonId],
  );
}
