import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * A card registration link handed out (card-registration-link): the customer enters a card at
 * the gateway (noop: our page), and the gateway's callback registers it. `card_id` is set by the
 * one callback that registers it, exactly once.
 */
export const CardRegistrationEntity = defineEntity({
  name: 'CardRegistration',
  tableName: 'card_registration',
  indexes: [{ name: 'card_registration_external_idx', properties: ['gateway', 'external_id'] }],
  properties: {
    /** Also the secret in the noop page's URL: 122 random bits. */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    gateway: p.string().length(32),
    currency: p.string().length(3).nullable(),
    redirect_url: p.text(),
    /** The gateway's id of the registration (cardgw_a: the checkout session), '' for noop. */
    external_id: p.string().length(256),
    card_id: p.uuid().nullable(),
    created_at: p.datetime(),
    completed_at: p.datetime().nullable(),
  },
});

export type CardRegistrationRow = InferEntity<typeof CardRegistrationEntity>;
