import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const PlanEntity = defineEntity({
  name: 'Plan',
  tableName: 'plan',
  uniques: [{ name: 'plan_organization_code_unique', properties: ['organization_id', 'code'] }],
  indexes: [{ name: 'plan_organization_created_idx', properties: ['organization_id', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    name: p.string().length(256),
    code: p.string().length(128),
    description: p.text(),
    collect_vat: p.boolean(),
    vat_type: p.string().length(16),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type PlanRow = InferEntity<typeof PlanEntity>;
