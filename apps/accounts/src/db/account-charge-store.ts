import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountChargeEntity } from './entities/account-charge.entity.js';

/** The charges one expired subscription's event names. */
export interface ExpiredSubscriptionCharges {
  organizationId: string;
  accountId: string;
  subscriptionId: string;
  ids: readonly string[];
}

/**
 * Records the charges an expired subscription's event names (a charge already recorded keeps its
 * row). Also for an account deleted meanwhile: such rows name no account and hold nothing back.
 */
export function recordExpiredSubscriptionCharges(
  em: EntityManager,
  charges: ExpiredSubscriptionCharges,
  now: Date,
): Promise<void> {
  return recordExpiredSubscriptionsCharges(em, [charges], now);
}

/**
 * recordExpiredSubscriptionCharges for the events of a batch, in one statement: a charge named
 * twice keeps the row of its first naming, as one after the other.
 */
export async function recordExpiredSubscriptionsCharges(
  em: EntityManager,
  named: readonly ExpiredSubscriptionCharges[],
  now: Date,
): Promise<void> {
  const rows = new Map<string, { id: string; organization_id: string; account_id: string; subscription_id: string }>();
  for (const charges of named) {
    for (const id of charges.ids) {
      if (rows.has(id)) continue;
      rows.set(id, {
        id,
        organization_id: charges.organizationId,
        account_id: charges.accountId,
        subscription_id: charges.subscriptionId,
      });
    }
  }
  if (rows.size === 0) return;
  // In id order: two batches naming the same charges wait for each other instead of deadlocking.
  const sorted = [...rows.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await em
    .createQueryBuilder(AccountChargeEntity)
    .insert(sorted.map((row) => ({ ...row, created_at: now })))
    .onConflict('id')
    .ignore()
    .execute('run');
}

/** The account's charges not yet confirmed invoiced, in uuid order. */
export async function accountChargesToConfirm(
  em: EntityManager,
  organizationId: string,
  accountId: string,
): Promise<string[]> {
  const rows = await em.find(
    AccountChargeEntity,
    { organization_id: organizationId, account_id: accountId },
    { fields: ['id'], orderBy: { id: 'asc' } },
  );
  return rows.map((row) => row.id);
}

/** Forgets charges invoicing confirmed are on an invoice: they hold nothing back any more. */
export async function forgetInvoicedCharges(
  em: EntityManager,
  organizationId: string,
  accountId: string,
  chargeIds: readonly string[],
): Promise<void> {
  if (chargeIds.length === 0) return;
  await em.nativeDelete(AccountChargeEntity, {
    organization_id: organizationId,
    account_id: accountId,
    id: { $in: [...chargeIds] },
  });
}
