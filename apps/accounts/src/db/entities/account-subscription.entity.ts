import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Read model: the latest state of each subscription (owned by the subscriptions service) as its
 * `subscription.changed` events told it, one row per subscription. The account list filters
 * `subscription_*` and the "no delete while subscribed" rule are derived from it by query, and
 * account reads embed the stored snapshots.
 */
export const AccountSubscriptionEntity = defineEntity({
  name: 'AccountSubscription',
  tableName: 'account_subscription',
  indexes: [
    { name: 'account_subscription_organization_account_idx', properties: ['organization_id', 'account_id'] },
    { name: 'account_subscription_organization_status_idx', properties: ['organization_id', 'status'] },
    { name: 'account_subscription_status_renewal_idx', properties: ['status', 'next_renewal_at'] },
  ],
  properties: {
    /** The subscription's uuid. */
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    account_id: p.uuid(),
    status: p.string().length(32),
    collection_method: p.string().length(32),
    /** The subscription's own last_modified_date, as of the stored state. */
    last_modified_date: p.datetime(),
    /** The stored state's Subscription.version: only a strictly greater one replaces it. */
    version: p.integer().default(0),
    /** The subscription's created_date: account reads list subscriptions oldest first. */
    created_date: p.datetime().nullable(),
    /**
     * The encoded billing.subscriptions.v1.Subscription of the stored state, served as is by
     * account reads. Null on rows stored before snapshots were kept (until their next event).
     */
    snapshot: p.blob().nullable(),
    /** The stored state's next renewal (null when it has none). */
    next_renewal_at: p.datetime().nullable(),
    /** The renewal whose renew_subscription_soon notice was made (webhooks), so it is made once. */
    renewal_noticed_for: p.datetime().nullable(),
    /** When this service last applied an event to the row. */
    updated_at: p.datetime(),
  },
});

export type AccountSubscriptionRow = InferEntity<typeof AccountSubscriptionEntity>;
