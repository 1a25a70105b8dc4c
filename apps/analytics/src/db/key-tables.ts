import { keysTable } from './sql-rows.js';

/** An account or a subscription of an organization, as a batch names the rows it reads. */
export type AccountRef = { organizationId: string; accountId: string };
export type SubscriptionRef = { organizationId: string; subscriptionId: string };

/** The accounts (each once) as a table `k(organization_id, account_id)` to join on an (organization, account) index. */
export const accountKeys = (accounts: readonly AccountRef[]) =>
  keysTable(
    'k',
    [
      ['organization_id', 'uuid'],
      ['account_id', 'uuid'],
    ],
    [...new Map(accounts.map((a) => [`${a.organizationId}/${a.accountId}`, [a.organizationId, a.accountId]])).values()],
  );

/** The subscriptions as a table `k(organization_id, subscription_id)` to join on an (organization, subscription) index. */
export const subscriptionKeys = (subscriptions: readonly SubscriptionRef[]) =>
  keysTable(
    'k',
    [
      ['organization_id', 'uuid'],
      ['subscription_id', 'uuid'],
    ],
    subscriptions.map((s) => [s.organizationId, s.subscriptionId]),
  );
