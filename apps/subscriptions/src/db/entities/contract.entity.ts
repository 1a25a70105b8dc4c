import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** A contract of an account (the accounts service's uuid; no cross-schema reference). */
export const ContractEntity = defineEntity({
  name: 'Contract',
  tableName: 'contract',
  indexes: [{ name: 'contract_organization_account_idx', properties: ['organization_id', 'account_id', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    plan_terms_id: p.uuid(),
    /** YYYY-MM-DD (text: a local day, never a timestamp). */
    start_date: p.string().length(10),
    end_date: p.string().length(10).nullable(),
    commitment_length: p.integer(),
    exclusive_tiers: p.boolean(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  },
});

export type ContractRow = InferEntity<typeof ContractEntity>;
