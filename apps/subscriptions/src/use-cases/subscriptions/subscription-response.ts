import type { RequestContext } from '@billing/observability';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SubscriptionRow } from '../../db/entities/subscription.entity.js';
import { termsIdsOf } from '../../db/subscription-catalog.js';
import { stateOf } from '../../db/subscription-state.js';
import { subscriptionView } from '../../db/subscription-view.js';
import { isValidTimeZone } from '../../domain/local-time.js';
import type { SubscriptionView } from '../../domain/subscription-view.js';
import { loadWorld } from './persist-outcome.js';

/** The organization's zone as the gateway sent it; UTC when a caller sent none. */
export function organizationTimeZone(context: RequestContext): string {
  const zone = context.organizationTimeZone;
  return zone && isValidTimeZone(zone) ? zone : 'UTC';
}

/** Subscriptions as the service presents them, with their terms and plans in two queries. */
export async function subscriptionViews(
  em: EntityManager,
  organizationId: string,
  rows: readonly SubscriptionRow[],
): Promise<SubscriptionView[]> {
  const world = await loadWorld(em, organizationId, rows.flatMap(termsIdsOf));
  return rows.map((row) => subscriptionView(row, stateOf(row, world.terms), world));
}

export async function subscriptionResponse(
  scope: { em: EntityManager; organizationId: string },
  row: SubscriptionRow,
): Promise<SubscriptionView> {
  const [view] = await subscriptionViews(scope.em, scope.organizationId, [row]);
  return view!;
}
