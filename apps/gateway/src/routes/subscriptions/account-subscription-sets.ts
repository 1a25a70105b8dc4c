import type { IncomingHttpHeaders } from 'node:http';
import type { accountsV1, subscriptionsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { MAX_PAGE_SIZE, parseFieldsHeader } from '../../http/index.js';
import { presentAccount, presentAccountWithSubscriptions } from '../accounts/account-representation.js';
import { presentSubscriptions } from './subscription-embeds.js';
import type { SubscriptionRepresentation } from './subscription-representation.js';

type SetClients = Pick<ServiceClients, 'subscriptions' | 'accounts' | 'churnReasons' | 'identity'>;

/**
 * Whether a read of accounts must fill `subscription_set`: always, unless the request's `Fields`
 * header leaves it out (then the subscriptions service is not asked at all).
 */
export function wantsSubscriptionSet(headers: IncomingHttpHeaders): boolean {
  const fields = parseFieldsHeader(typeof headers.fields === 'string' ? headers.fields : undefined);
  return fields === null || fields.has('subscription_set');
}

/**
 * The `subscription_set` of each account: every subscription of the accounts, oldest first, each
 * the full subscription object (as DRF nests a serializer). One ListSubscriptions call covers up to
 * 100 subscriptions of all the accounts together (more pages only beyond that) and one embedding
 * round covers them all, whatever the number of accounts.
 */
export async function loadSubscriptionSets(
  clients: SetClients,
  accountUuids: readonly string[],
): Promise<Map<string, SubscriptionRepresentation[]>> {
  const sets = new Map<string, SubscriptionRepresentation[]>(accountUuids.map((uuid) => [uuid, []]));
  if (accountUuids.length === 0) return sets;
  const found: subscriptionsV1.Subscription[] = [];
  for (let page = 1; ; page++) {
    const reply = await clients.subscriptions.call('listSubscriptions', {
      page: { page, page_size: MAX_PAGE_SIZE, ordering: 'created_date' },
      filter: { account_in: [...accountUuids], account_in_set: true },
    });
    found.push(...reply.subscriptions);
    if (found.length >= reply.count || reply.subscriptions.length === 0) break;
  }
  for (const subscription of await presentSubscriptions(clients, found)) {
    sets.get(subscription.account_uuid)?.push(subscription);
  }
  return sets;
}

/**
 * Account reads (list, detail, update) present accounts through this: each with its
 * `subscription_set`, one subscriptions round for all of them.
 */
export function presentAccountsWithSubscriptions(clients: SetClients) {
  return async (accounts: readonly accountsV1.Account[], headers: IncomingHttpHeaders) => {
    if (!wantsSubscriptionSet(headers)) return accounts.map((account) => presentAccount(account));
    const sets = await loadSubscriptionSets(
      clients,
      accounts.map((account) => account.uuid),
    );
    return accounts.map((account) => presentAccountWithSubscriptions(account, sets.get(account.uuid) ?? []));
  };
}
