import type { ExchangeRate } from '@billing/money';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An organization's money settings as accounts' organization.created / .updated events state them
 * (the latest replaces the stored one): what current_mrr and committed_mrr are shown in.
 */
export const OrganizationMoneyEntity = defineEntity({
  name: 'OrganizationMoney',
  tableName: 'organization_money',
  properties: {
    id: p.uuid().primary(),
    base_currency: p.string().length(3),
    time_zone: p.string().length(64),
    exchange_rates: p.json<ExchangeRate[]>(),
  },
});

export type OrganizationMoneyRow = InferEntity<typeof OrganizationMoneyEntity>;
