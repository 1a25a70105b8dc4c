import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model of how an account can pay, owned by the payments service: whether it has an active
 * payment card and whether it is registered for direct debit, from which the account's active
 * payment method follows (domain/payment-means.ts). It is to be fed by the payments service's
 * events (payment_card.activated / .deactivated, direct debit registrations) once that service
 * publishes them; until then no account has a row, and an account without a row has no card and
 * no direct debit, so it pays by invoice. The account list filters `active_payment_method` and
 * `registered_for_direct_debit` (and the subscription list's `account_active_payment_method`)
 * read it.
 */
export const AccountPaymentMeansEntity = defineEntity({
  name: 'AccountPaymentMeans',
  tableName: 'account_payment_means',
  indexes: [{ name: 'account_payment_means_organization_idx', properties: ['organization_id'] }],
  properties: {
    account_id: p.uuid().primary(),
    organization_id: p.uuid(),
    has_active_payment_card: p.boolean(),
    registered_for_direct_debit: p.boolean(),
    updated_at: p.datetime(),
  },
});

export type AccountPaymentMeansRow = InferEntity<typeof AccountPaymentMeansEntity>;
