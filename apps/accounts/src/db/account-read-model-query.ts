import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountReadModelSnapshots } from '../domain/account-view.js';
import { AccountDraftLineEntity } from './entities/account-draft-line.entity.js';
import { AccountPaymentCardEntity } from './entities/account-payment-card.entity.js';
import { AccountSubscriptionEntity } from './entities/account-subscription.entity.js';

/**
 * The read model's snapshots of several accounts (a page of the list, or one written account):
 * one query per set whatever the number of accounts, each oldest first (created_date, then uuid;
 * the same order as the GetAccount statement). Draft lines deleted or invoiced are left out, and so
 * are subscriptions stored before snapshots were kept.
 */
export async function findReadModelSnapshots(
  em: EntityManager,
  organizationId: string,
  accountIds: string[],
): Promise<Map<string, AccountReadModelSnapshots>> {
  const byAccount = new Map<string, AccountReadModelSnapshots>(
    accountIds.map((id) => [id, { subscriptions: [], draft_lines: [], payment_cards: [] }]),
  );
  if (accountIds.length === 0) return byAccount;
  const [subscriptions, draftLines, cards] = await Promise.all([
    em.find(
      AccountSubscriptionEntity,
      { organization_id: organizationId, account_id: { $in: accountIds }, snapshot: { $ne: null } },
      { fields: ['account_id', 'snapshot'], orderBy: [{ created_date: 'asc' }, { id: 'asc' }] },
    ),
    em.find(
      AccountDraftLineEntity,
      { organization_id: organizationId, account_id: { $in: accountIds }, removed: false },
      { fields: ['account_id', 'snapshot'], orderBy: [{ created_date: 'asc' }, { id: 'asc' }] },
    ),
    em.find(
      AccountPaymentCardEntity,
      { organization_id: organizationId, account_id: { $in: accountIds } },
      { fields: ['account_id', 'snapshot'], orderBy: [{ created_date: 'asc' }, { id: 'asc' }] },
    ),
  ]);
  for (const row of subscriptions) {
    if (row.snapshot) byAccount.get(row.account_id)?.subscriptions.push(row.snapshot);
  }
  for (const row of draftLines) byAccount.get(row.account_id)?.draft_lines.push(row.snapshot);
  for (const row of cards) byAccount.get(row.account_id)?.payment_cards.push(row.snapshot);
  return byAccount;
}
