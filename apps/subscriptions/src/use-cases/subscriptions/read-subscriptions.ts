import { pageSpec } from '@billing/domain-kit';
import type { RequestContext } from '@billing/observability';
import type { subscriptionsV1 } from '@billing/proto';
import { ChargeEntity } from '../../db/entities/charge.entity.js';
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

/** The ids of the organization's charges made at `moment` (a test-clock ProcessDue runs everything at its `until`). */
export async function chargesMadeAt(deps: SubscriptionsDeps, organizationId: string, moment: Date): Promise<string[]> {
  const rows = await deps.orm.em
    .fork()
    .find(
      ChargeEntity,
      { organization_id: organizationId, created_at: moment },
      { fields: ['id'], orderBy: { id: 'asc' } },
    );
  return rows.map((row) => row.id);
}
