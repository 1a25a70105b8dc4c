import type { EntityManager } from '@mikro-orm/postgresql';
import { RejectedChargeEntity } from './entities/rejected-charge.entity.js';

/** Records a charge the consumer set aside (once: a later verdict on the same charge keeps the first). */
export async function recordRejectedCharge(
  em: EntityManager,
  rejected: { chargeId: string; organizationId: string; eventId: string; reason: string },
  now: Date,
): Promise<void> {
  await em
    .createQueryBuilder(RejectedChargeEntity)
    .insert({
      charge_id: rejected.chargeId,
      organization_id: rejected.organizationId,
      event_id: rejected.eventId,
      reason: rejected.reason,
      rejected_at: now,
    })
    .onConflict('charge_id')
    .ignore()
    .execute('run');
}

/** The charges among `chargeIds` of the organization that were set aside, with why. */
export async function rejectedCharges(
  em: EntityManager,
  organizationId: string,
  chargeIds: readonly string[],
): Promise<{ chargeId: string; reason: string }[]> {
  if (chargeIds.length === 0) return [];
  const rows = await em.find(
    RejectedChargeEntity,
    { organization_id: organizationId, charge_id: { $in: [...chargeIds] } },
    { fields: ['charge_id', 'reason'], orderBy: { charge_id: 'asc' } },
  );
  return rows.map((row) => ({ chargeId: row.charge_id, reason: row.reason }));
}
