import type { accountsV1, subscriptionsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { loadAccounts } from '../shared/account-lookup.js';
import {
  needsOrganizationPaymentTerms,
  presentSubscription,
  type SubscriptionEmbeds,
  type SubscriptionRepresentation,
} from './subscription-representation.js';

type EmbedClients = Pick<ServiceClients, 'accounts' | 'churnReasons' | 'identity'>;

const unique = (values: Iterable<string | undefined>): string[] =>
  [...new Set(values)].filter((value): value is string => value !== undefined && value !== '');

/**
 * Objects the caller already holds (e.g. the account and churn reason a write named, or the embeds
 * an account read sends with its subscriptions).
 */
export interface KnownEmbeds {
  accounts?: readonly accountsV1.AccountSummary[];
  churnReasons?: readonly accountsV1.ChurnReason[];
  /** The organization's default payment terms, when known: GetOrganization is not asked then. */
  organizationPaymentTerms?: number | undefined;
}

async function organizationDefaultPaymentTerms(clients: EmbedClients): Promise<number | null> {
  return (await clients.identity.call('getOrganization', {})).organization?.default_payment_terms ?? null;
}

/**
 * Loads what a set of subscriptions embeds with a fixed number of calls whatever their number: one
 * GetAccountSummaries, one GetChurnReasons (only when some subscription has a churn reason) and one
 * GetOrganization (only when some subscription and its account both leave the payment terms to the
 * organization). Objects in `known` are not asked for again: an account read sends them all, so
 * presenting its subscriptions makes no call.
 */
export async function loadEmbeds(
  clients: EmbedClients,
  subscriptions: readonly subscriptionsV1.Subscription[],
  known: KnownEmbeds = {},
): Promise<SubscriptionEmbeds> {
  const churnReasons = new Map((known.churnReasons ?? []).map((reason) => [reason.uuid, reason]));
  const churnReasonIds = unique(subscriptions.map((item) => item.churn_reason)).filter(
    (uuid) => !churnReasons.has(uuid),
  );
  const [accounts, reasons] = await Promise.all([
    loadAccounts(
      clients,
      subscriptions.map((item) => item.account),
      known.accounts,
    ),
    churnReasonIds.length > 0
      ? clients.churnReasons.call('getChurnReasons', { uuids: churnReasonIds })
      : { churn_reasons: [] },
  ]);
  for (const reason of reasons.churn_reasons) churnReasons.set(reason.uuid, reason);
  const organizationPaymentTerms = subscriptions.some((item) => needsOrganizationPaymentTerms(item, accounts))
    ? (known.organizationPaymentTerms ?? (await organizationDefaultPaymentTerms(clients)))
    : null;
  return { accounts, churnReasons, organizationPaymentTerms };
}

/** Presents subscriptions with everything they embed, loaded together. */
export async function presentSubscriptions(
  clients: EmbedClients,
  subscriptions: readonly subscriptionsV1.Subscription[],
  known: KnownEmbeds = {},
): Promise<SubscriptionRepresentation[]> {
  if (subscriptions.length === 0) return [];
  const embeds = await loadEmbeds(clients, subscriptions, known);
  return subscriptions.map((subscription) => presentSubscription(subscription, embeds));
}
