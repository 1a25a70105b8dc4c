import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model: the charges of an account's expired subscriptions, as the subscription.changed event
 * that left each subscription expired named them (SubscriptionChanged.charges). Until invoicing
 * confirms that a charge is on an invoice, it is on its way to one and the account is not deleted;
 * a delete that finds it invoiced forgets it (docs/architecture.md "Invoices and account deletion").
 */
export const AccountChargeEntity = defineEntity({
  name: 'AccountCharge',
  tableName: 'account_charge',
  indexes: [{ name: 'account_charge_organization_account_idx', properties: ['organization_id', 'account_id'] }],
  properties: {
    /** The charge's uuid (the subscription engine's). */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    subscription_id: p.uuid(),
    created_at: p.datetime(),
  },
});

export type AccountChargeRow = InferEntity<typeof AccountChargeEntity>;
