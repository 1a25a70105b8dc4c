import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const PaymentGatewayAccountEntity = defineEntity({
  name: 'PaymentGatewayAccount',
  tableName: 'payment_gateway_account',
  indexes: [{ name: 'pga_organization_account_idx', properties: ['organization_id', 'account_id'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    payment_gateway: p.string().length(32),
    payment_gateway_account_id: p.string().length(256),
    position: p.integer(),
  },
});

export type PaymentGatewayAccountRow = InferEntity<typeof PaymentGatewayAccountEntity>;
