import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { CHURN_REASON_NAME_MAX } from '../../domain/churn-reason.js';

/**
 * An organization's churn reasons (its settings). Deleting one only marks it: subscriptions in
 * another service keep naming it by uuid, and must still be able to show it.
 */
export const ChurnReasonEntity = defineEntity({
  name: 'ChurnReason',
  tableName: 'churn_reason',
  indexes: [{ name: 'churn_reason_organization_created_idx', properties: ['organization_id', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    name: p.string().length(CHURN_REASON_NAME_MAX),
    is_active: p.boolean(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
    deleted_at: p.datetime().nullable(),
  },
});

export type ChurnReasonRow = InferEntity<typeof ChurnReasonEntity>;
