import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const PlanTermsEntity = defineEntity({
  name: 'PlanTerms',
  tableName: 'plan_terms',
  indexes: [
    { name: 'plan_terms_organization_plan_idx', properties: ['organization_id', 'plan_id'] },
    { name: 'plan_terms_organization_created_idx', properties: ['organization_id', 'created_at'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    plan_id: p.uuid(),
    code: p.string().length(128),
    interval_type: p.string().length(8),
    interval_count: p.integer(),
    /** numeric(20, 6): read and written as text, computed with decimal.js, never a float. */
    price: p.decimal('string').precision(20).scale(6),
    currency: p.string().length(3),
    backwards_charging: p.boolean(),
    active: p.boolean(),
    revenue_group: p.string().length(128).nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type PlanTermsRow = InferEntity<typeof PlanTermsEntity>;
