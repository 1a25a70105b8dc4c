import { pageSpec } from '@billing/domain-kit';
import type { RequestContext } from '@billing/observability';
import type { subscriptionsV1 } from '@billing/proto';
import { findSubscriptions, requireSubscription } from '../../db/subscription-store.js';
import { requireOrganization } from '../change-transaction.js';
import type { SubscriptionsDeps } from '../deps.js';
import { subscriptionMessages, subscriptionResponse } from './subscription-response.js';

export async function getSubscription(
  deps: SubscriptionsDeps,
  context: RequestContext,
  uuid: string,
): Promise<subscriptionsV1.Subscription> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const row = await requireSubscription(em, organizationId, uuid);
  return subscriptionResponse({ em, organizationId }, row);
}

export async function listSubscriptions(
  deps: SubscriptionsDeps,
  context: RequestContext,
  request: subscriptionsV1.ListSubscriptionsRequest,
): Promise<{ count: number; subscriptions: subscriptionsV1.Subscription[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { count, rows } = await findSubscriptions(em, organizationId, request.filter, pageSpec(request.page));
  return { count, subscriptions: await subscriptionMessages(em, organizationId, rows) };
}
