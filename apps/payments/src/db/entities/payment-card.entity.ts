import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** A card registered at a gateway (api-spec "Payment card"): only what the gateway told, never a number. */
export const PaymentCardEntity = defineEntity({
  name: 'PaymentCard',
  tableName: 'payment_card',
  indexes: [{ name: 'payment_card_organization_account_idx', properties: ['organization_id', 'account_id'] }],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    active: p.boolean(),
    brand: p.string().length(32),
    last4: p.string().length(4),
    month: p.integer(),
    year: p.integer(),
    name: p.string().length(256),
    gateway: p.string().length(32),
    /** The gateway's id of the card (cardgw_a: the payment method id). */
    gateway_id: p.string().length(256),
    /** The gateway's customer the card is attached to, when it has one. */
    gateway_customer: p.string().length(256).nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
    /** 1 on creation, +1 per change published (orders the card's states for event readers). */
    version: p.integer(),
    /** The local month (YYYY-MM) card_expires_this_month was sent for, so it goes once. */
    expiry_notice_month: p.string().length(7).nullable(),
  },
});

export type PaymentCardRow = InferEntity<typeof PaymentCardEntity>;
