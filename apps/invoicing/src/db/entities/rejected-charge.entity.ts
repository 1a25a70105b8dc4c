import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A charge.created event the charge consumer set aside as poison (its handling kept failing): the
 * charge is not invoiced and needs attention. Kept so that whoever waits for the charge (the test
 * clock's advance) fails at once instead of waiting out its timeout.
 */
export const RejectedChargeEntity = defineEntity({
  name: 'RejectedCharge',
  tableName: 'rejected_charge',
  properties: {
    charge_id: p.uuid().primary(),
    organization_id: p.uuid(),
    /** The event set aside. */
    event_id: p.text(),
    /** Why its handling failed (the error's message). */
    reason: p.text(),
    rejected_at: p.datetime(),
  },
});

export type RejectedChargeRow = InferEntity<typeof RejectedChargeEntity>;
