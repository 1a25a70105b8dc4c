import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountChargeEntity } from './entities/account-charge.entity.js';

/**
 * Records the charges an expired subscription's event names (a charge already recorded keeps its
 * row). Also for an account deleted meanwhile: such rows name no account and hold nothing back.
 */
export async function recordExpiredSubscriptionCharges(
  em: EntityManager,
  charges: { organizationId: string; accountId: string; subscriptionId: string; ids: readonly string[] },
  now: Date,
): Promise<void> {
  if (charges.ids.length === 0) return;
  await em
    .createQueryBuilder(AccountChargeEntity)
    .insert(
      charges.ids.map((id) => ({
        id,
        organization_id: charges.organizationId,
        account_id: charges.accountId,
        subscription_id: charges.subscriptionId,
        created_at: now,
      })),
    )
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
