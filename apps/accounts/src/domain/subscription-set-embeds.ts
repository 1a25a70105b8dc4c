import { takesOrganizationPaymentTerms } from '@billing/domain-kit';
import { type AccountSummary, accountSummary, type SummaryFields } from './account-summary.js';

/**
 * What presenting a subscription of an account read takes from it besides the subscription itself:
 * whose it is, the churn reason it names and its own payment terms (the rest is served as stored).
 */
export interface EmbeddingSubscription {
  account: string;
  churn_reason: string | null;
  payment_terms: number | null;
}

/** An account of a read's reply with the subscriptions the read returns with it. */
export interface SubscribedAccount {
  uuid: string;
  fields: SummaryFields;
  subscriptions: readonly EmbeddingSubscription[];
}

/** What the reply's subscriptions embed: what must be looked up is only named here. */
export interface SubscriptionSetNeeds {
  /** The summaries of the reply's accounts that have subscriptions (built from the reply itself). */
  accounts: AccountSummary[];
  /** The churn reasons the subscriptions name, each once, in the order first named. */
  churnReasonIds: string[];
  /** Whether some subscription and its account both leave the payment terms to the organization. */
  organizationPaymentTerms: boolean;
}

/**
 * What presenting the subscriptions asks for (effective_payment_terms follows domain-kit's
 * effectivePaymentTerms), so the reply carries exactly that and the gateway need not call again.
 * Nothing is needed when no account has subscriptions.
 */
export function subscriptionSetNeeds(accounts: readonly SubscribedAccount[]): SubscriptionSetNeeds {
  const subscribed = accounts.filter((account) => account.subscriptions.length > 0);
  const summaries = new Map(subscribed.map((account) => [account.uuid, accountSummary(account.uuid, account.fields)]));
  const subscriptions = subscribed.flatMap((account) => account.subscriptions);
  const churnReasonIds = new Set<string>();
  for (const subscription of subscriptions) {
    if (subscription.churn_reason) churnReasonIds.add(subscription.churn_reason);
  }
  return {
    accounts: [...summaries.values()],
    churnReasonIds: [...churnReasonIds],
    organizationPaymentTerms: subscriptions.some((subscription) =>
      takesOrganizationPaymentTerms(subscription.payment_terms, summaries.get(subscription.account)?.payment_terms),
    ),
  };
}
