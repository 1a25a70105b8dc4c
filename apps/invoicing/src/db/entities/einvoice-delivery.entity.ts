import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The delivery of an e-invoice to the access point: one row per invoice (its primary key), so an
 * invoice is delivered once. Due at `next_attempt_at` on the organization's clock; a failed attempt
 * schedules the next (domain/einvoice/delivery-schedule.ts); delivered or failed for good: null.
 */
export const EinvoiceDeliveryEntity = defineEntity({
  name: 'EinvoiceDelivery',
  tableName: 'einvoice_delivery',
  indexes: [{ name: 'einvoice_delivery_due_idx', properties: ['on_test_clock', 'organization_id', 'next_attempt_at'] }],
  properties: {
    invoice_id: p.uuid().primary(),
    organization_id: p.uuid(),
    /** Due on the organization's test clock (the advance delivers it), not by the real time. */
    on_test_clock: p.boolean(),
    /** Failed attempts of the schedule so far. */
    step: p.integer(),
    attempts: p.integer(),
    next_attempt_at: p.datetime().nullable(),
    last_status_code: p.integer().nullable(),
    last_error: p.text().nullable(),
    delivered_at: p.datetime().nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type EinvoiceDeliveryRow = InferEntity<typeof EinvoiceDeliveryEntity>;
