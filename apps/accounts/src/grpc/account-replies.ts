import type { RequestContext } from '@billing/observability';
import type { accountsV1, subscriptionsV1 } from '@billing/proto';
import type { AccountView } from '../domain/account-view.js';
import type { EmbeddingSubscription } from '../domain/subscription-set-embeds.js';
import type { AccountsDeps } from '../use-cases/deps.js';
import {
  type KnownOrganization,
  type SubscriptionSetEmbeds,
  subscriptionSetEmbeds,
} from '../use-cases/subscription-set-embeds.js';
import { accountMessage, accountMessageWithoutSets, summaryMessage } from './account-mapper.js';
import { embeddingFacts, withStoredSets } from './stored-account-sets.js';

/** The subscription message's facts the embeds depend on (proto unset → domain null). */
function embeddingSubscription(subscription: subscriptionsV1.Subscription): EmbeddingSubscription {
  return {
    account: subscription.account,
    churn_reason: subscription.churn_reason || null,
    payment_terms: subscription.payment_terms ?? null,
  };
}

function embedsMessage(embeds: SubscriptionSetEmbeds): accountsV1.SubscriptionSetEmbeds {
  return {
    accounts: embeds.accounts.map(summaryMessage),
    churn_reasons: embeds.churn_reasons,
    ...(embeds.organization_default_payment_terms !== null
      ? { organization_default_payment_terms: embeds.organization_default_payment_terms }
      : {}),
  };
}

/**
 * The accounts of a read's reply (GetAccount, ListAccounts, UpdateAccount) as messages, with what
 * their subscriptions embed, read from the subscriptions as accountMessage decoded them (once).
 * `organization`: the organization's row as the read found it already (not read again).
 */
export async function accountsReply(
  deps: AccountsDeps,
  context: RequestContext,
  views: readonly AccountView[],
  organization: KnownOrganization | null = null,
): Promise<{ accounts: accountsV1.Account[]; embeds: accountsV1.SubscriptionSetEmbeds }> {
  const accounts = views.map(accountMessage);
  const subscribed = views.map((view, index) => ({
    uuid: view.uuid,
    fields: view,
    subscriptions: accounts[index]!.subscriptions.map(embeddingSubscription),
  }));
  return { accounts, embeds: embedsMessage(await subscriptionSetEmbeds(deps, context, subscribed, organization)) };
}

/** One account's reply (GetAccount, UpdateAccount). */
export async function accountReply(
  deps: AccountsDeps,
  context: RequestContext,
  view: AccountView,
  organization: KnownOrganization | null = null,
): Promise<{ account: accountsV1.Account; embeds: accountsV1.SubscriptionSetEmbeds }> {
  const { accounts, embeds } = await accountsReply(deps, context, [view], organization);
  return { account: accounts[0]!, embeds };
}

/**
 * GetAccount's reply: the account with its read model's snapshots sent as stored (the service's
 * definition encodes them with encodeGetAccountResponse), the embeds read from the snapshots'
 * few fields they depend on. The gateway receives what accountReply would send.
 */
export async function accountReadReply(
  deps: AccountsDeps,
  context: RequestContext,
  view: AccountView,
  organization: KnownOrganization | null,
): Promise<{ account: accountsV1.Account; embeds: accountsV1.SubscriptionSetEmbeds }> {
  const account = withStoredSets(accountMessageWithoutSets(view), view.read_model);
  const subscribed = [
    { uuid: view.uuid, fields: view, subscriptions: view.read_model.subscriptions.map(embeddingFacts) },
  ];
  return { account, embeds: embedsMessage(await subscriptionSetEmbeds(deps, context, subscribed, organization)) };
}
