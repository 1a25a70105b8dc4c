import type { IncomingHttpHeaders } from 'node:http';
import type { accountsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { fieldsHeaderKeeps } from '../../http/index.js';
import { presentAccount, presentAccountWithSubscriptions } from '../accounts/account-representation.js';
import { type KnownEmbeds, presentSubscriptions } from './subscription-embeds.js';
import type { SubscriptionRepresentation } from './subscription-representation.js';

type SetClients = Pick<ServiceClients, 'accounts' | 'churnReasons' | 'identity'>;

/**
 * What an account read (GetAccount, ListAccounts, UpdateAccount) sends for its subscriptions: all
 * they embed, so presenting them makes no call. Absent (an older accounts service), the embeds are
 * loaded as for any subscriptions.
 */
export function knownFromAccountRead(embeds: accountsV1.SubscriptionSetEmbeds | undefined): KnownEmbeds {
  if (!embeds) return {};
  return {
    accounts: embeds.accounts,
    churnReasons: embeds.churn_reasons,
    organizationPaymentTerms: embeds.organization_default_payment_terms,
  };
}

/**
 * Account reads (list, detail, update) present accounts through this: each with its
 * `subscription_set`, every subscription of the account (oldest first) as the full subscription
 * object, as DRF nests a serializer. The accounts service sends the subscriptions with the account
 * (its read model of subscription.changed, docs/architecture.md) and, in the reply's `embeds`,
 * what they embed (account summaries, churn reasons, organization payment terms): one call per read.
 */
export function presentAccountsWithSubscriptions(clients: SetClients) {
  return async (
    accounts: readonly accountsV1.Account[],
    embeds: accountsV1.SubscriptionSetEmbeds | undefined,
    headers: IncomingHttpHeaders,
  ) => {
    // Left out by `Fields`: its subscriptions are not presented at all.
    if (!fieldsHeaderKeeps(headers, 'subscription_set')) return accounts.map((account) => presentAccount(account));
    const sets = new Map<string, SubscriptionRepresentation[]>(accounts.map((account) => [account.uuid, []]));
    const presented = await presentSubscriptions(
      clients,
      accounts.flatMap((account) => account.subscriptions),
      knownFromAccountRead(embeds),
    );
    for (const subscription of presented) sets.get(subscription.account_uuid)?.push(subscription);
    return accounts.map((account) => presentAccountWithSubscriptions(account, sets.get(account.uuid) ?? []));
  };
}
