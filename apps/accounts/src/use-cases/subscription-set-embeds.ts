import type { RequestContext } from '@billing/observability';
import type { AccountSummary } from '../domain/account-summary.js';
import type { ChurnReasonView } from '../domain/churn-reason.js';
import { type SubscribedAccount, subscriptionSetNeeds } from '../domain/subscription-set-embeds.js';
import { getChurnReasons } from './churn-reasons.js';
import type { AccountsDeps } from './deps.js';
import { getOrganization } from './organizations.js';

/** What an account read's subscriptions embed, sent with the read so it takes no other call. */
export interface SubscriptionSetEmbeds {
  accounts: AccountSummary[];
  /** As GetChurnReasons answers them: deleted ones included. */
  churn_reasons: ChurnReasonView[];
  /** Only when some subscription needs it (else null). */
  organization_default_payment_terms: number | null;
}

/** What the caller read already with the accounts (GET one account reads the organization's terms). */
export interface KnownOrganization {
  default_payment_terms: number | null;
}

/**
 * The embeds of a reply's accounts: the summaries come from the accounts already read; a churn
 * reason lookup and the organization's row are read (together) only when the subscriptions need
 * them, the row only when the caller does not know it yet. A reply without subscriptions reads
 * nothing.
 */
export async function subscriptionSetEmbeds(
  deps: AccountsDeps,
  context: RequestContext,
  accounts: readonly SubscribedAccount[],
  known: KnownOrganization | null = null,
): Promise<SubscriptionSetEmbeds> {
  const needs = subscriptionSetNeeds(accounts);
  const [churnReasons, organization] = await Promise.all([
    needs.churnReasonIds.length > 0 ? getChurnReasons(deps, context, needs.churnReasonIds) : [],
    needs.organizationPaymentTerms ? (known ?? getOrganization(deps, context)) : null,
  ]);
  return {
    accounts: needs.accounts,
    // By name (then uuid): the lookup's row order is not an order, and replies should not vary.
    churn_reasons: [...churnReasons].sort((a, b) => a.name.localeCompare(b.name) || a.uuid.localeCompare(b.uuid)),
    organization_default_payment_terms: organization?.default_payment_terms ?? null,
  };
}
