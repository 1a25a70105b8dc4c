import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const RecipientEntity = defineEntity({
  name: 'Recipient',
  tableName: 'recipient',
  indexes: [{ name: 'recipient_organization_account_idx', properties: ['organization_id', 'account_id'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    name: p.string().length(256),
    email: p.string().length(254),
    receive_invoice: p.boolean(),
    receive_payment_confirmation: p.boolean(),
    receive_payment_card_notifications: p.boolean(),
    receive_subscription_notifications: p.boolean(),
    created_at: p.datetime(),
  },
});

export type RecipientRow = InferEntity<typeof RecipientEntity>;
