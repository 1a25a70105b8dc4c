import { type ExportSource, pagesOf } from '@billing/exports';
import { subscriptionsV1 } from '@billing/proto';
import type { SubscriptionView } from '../domain/subscription-view.js';
import { exportSubscriptions } from '../use-cases/subscriptions/read-subscriptions.js';
import { subscriptionListFilter, subscriptionMessage } from './subscription-mapper.js';

/** Rows per stored page: a page of the subscription list is one ListSubscriptionsResponse. */
const PAGE_ROWS = 500;

/**
 * The subscription list's export ("subscriptions"): params a ListSubscriptionsRequest (the list's
 * filter, with the account filters the gateway resolved, and ordering), pages
 * ListSubscriptionsResponses, presented by the gateway as it presents the list.
 */
export const subscriptionListExport: ExportSource = {
  kind: 'subscriptions',
  async open(snapshot, { organizationId, params }) {
    const request = subscriptionsV1.ListSubscriptionsRequest.decode(params);
    const { total, rows } = await exportSubscriptions(
      snapshot,
      organizationId,
      subscriptionListFilter(request.filter),
      request.page?.ordering ?? '',
    );
    const encode = (subscriptions: SubscriptionView[]) =>
      subscriptionsV1.ListSubscriptionsResponse.encode({
        count: subscriptions.length,
        subscriptions: subscriptions.map(subscriptionMessage),
      }).finish();
    return { total, pages: pagesOf(rows, PAGE_ROWS, encode) };
  },
};
