import type { PageSpec } from '@billing/domain-kit';
import type { RequestContext } from '@billing/observability';
import { findSubscriptions, requireSubscription } from '../../db/subscription-store.js';
import type { SubscriptionListFilter } from '../../domain/subscription-list.js';
import type { SubscriptionView } from '../../domain/subscription-view.js';
import { requireOrganization } from '../change-transaction.js';
import type { SubscriptionsDeps } from '../deps.js';
import { subscriptionResponse, subscriptionViews } from './subscription-response.js';

export async function getSubscription(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
): Promise<SubscriptionView> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const row = await requireSubscription(em, organizationId, uuid);
  return subscriptionResponse({ em, organizationId }, row);
}

export async function listSubscriptions(
  deps: SubscriptionsDeps,
  context: RequestContext,
  filter: SubscriptionListFilter,
  page: PageSpec,
): Promise<{ count: number; subscriptions: SubscriptionView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { count, rows } = await findSubscriptions(em, organizationId, filter, page);
  return { count, subscriptions: await subscriptionViews(em, organizationId, rows) };
}
