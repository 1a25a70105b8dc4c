import type { RequestContext } from '@billing/observability';
import type { AccountSummary } from '../../domain/account-summary.js';
import type { ChurnReasonView } from '../../domain/churn-reason.js';
import { getAccountSummaries } from '../account-summaries.js';
import { getChurnReasons } from '../churn-reasons.js';
import type { AccountsDeps } from '../deps.js';
import { getOrganization } from '../organizations.js';

/** What webhook data embeds besides the event's object, all of it this service's own data. */
export interface WebhookEmbeds {
  accounts: AccountSummary[];
  churnReasons: ChurnReasonView[];
  organizationPaymentTerms: number;
  organizationFeatures: string[];
}

/** Reads the embeds of one event's data: the accounts and churn reasons it names, the organization. */
export async function loadWebhookEmbeds(
  deps: AccountsDeps,
  context: RequestContext,
  named: { accounts: readonly string[]; churnReasons: readonly string[] },
): Promise<WebhookEmbeds> {
  const [accounts, churnReasons, organization] = await Promise.all([
    named.accounts.length > 0 ? getAccountSummaries(deps, context, named.accounts, []) : [],
    named.churnReasons.length > 0 ? getChurnReasons(deps, context, named.churnReasons) : [],
    getOrganization(deps, context),
  ]);
  return {
    accounts,
    churnReasons,
    organizationPaymentTerms: organization.default_payment_terms,
    organizationFeatures: organization.features,
  };
}
