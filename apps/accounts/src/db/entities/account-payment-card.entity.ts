import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model: the latest state of each payment card (owned by the payments service) as its
 * `payments.payment_card.*` events told it, one row per card. Account reads embed the snapshots
 * (`paymentcard_set`), and account_payment_means.has_active_payment_card is derived from the
 * account's rows in the same transaction.
 */
export const AccountPaymentCardEntity = defineEntity({
  name: 'AccountPaymentCard',
  tableName: 'account_payment_card',
  indexes: [{ name: 'account_payment_card_organization_account_idx', properties: ['organization_id', 'account_id'] }],
  properties: {
    /** The card's uuid. */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    active: p.boolean(),
    /** The stored state's PaymentCard.version: only a strictly greater one replaces it. */
    version: p.integer(),
    created_date: p.datetime(),
    /** The encoded billing.payments.v1.PaymentCard, served as is by account reads. */
    snapshot: p.blob(),
    updated_at: p.datetime(),
  },
});

export type AccountPaymentCardRow = InferEntity<typeof AccountPaymentCardEntity>;
