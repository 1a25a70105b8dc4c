import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const ContractTierEntity = defineEntity({
  name: 'ContractTier',
  tableName: 'contract_tier',
  indexes: [{ name: 'contract_tier_organization_contract_idx', properties: ['organization_id', 'contract_id'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    contract_id: p.uuid(),
    minimum_quantity: p.integer(),
    maximum_quantity: p.integer().nullable(),
    /** numeric(20, 6) as text: percentage points or an amount off the unit price. */
    discount: p.decimal('string').precision(20).scale(6),
    discount_type: p.string().length(16),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type ContractTierRow = InferEntity<typeof ContractTierEntity>;
