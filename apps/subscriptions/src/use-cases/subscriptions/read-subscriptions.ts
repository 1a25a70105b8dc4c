import type { PageSpec } from '@billing/domain-kit';
import { type ExportSnapshot, inBatches, type ReadRow } from '@billing/exports';
import type { RequestContext } from '@billing/observability';
import { findSubscriptions, requireSubscription, streamSubscriptions } from '../../db/subscription-store.js';
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

/**
 * The subscription list's rows for an export: every subscription matching the list's filters, in
 * its ordering, read with a cursor in the export's snapshot and made views a batch at a time (their
 * plans and terms read on the snapshot's second connection while the cursor stays open).
 */
export async function exportSubscriptions(
  snapshot: ExportSnapshot,
  organizationId: string,
  filter: SubscriptionListFilter,
  ordering: string,
): Promise<{ total: number; rows: AsyncIterable<ReadRow<SubscriptionView>> }> {
  const { count, rows } = await streamSubscriptions(snapshot.cursor, organizationId, filter, ordering);
  async function* views() {
    let read = 0;
    for await (const batch of inBatches(rows, EXPORT_BATCH)) {
      for (const view of await subscriptionViews(snapshot.lookups, organizationId, batch)) {
        yield { row: view, read: ++read };
      }
    }
  }
  return { total: count, rows: views() };
}

/** Subscriptions made views together (their plans and terms loaded once per batch). */
const EXPORT_BATCH = 500;
