import type { RequestContext } from '@billing/observability';
import { type ChangeScope, runChange as runServiceChange } from '@billing/runtime';
import type { SubscriptionsDeps } from './deps.js';

export { type ChangeScope, requireOrganization } from '@billing/runtime';

/**
 * One change, one transaction (with its audit row and outbox events) on the subscriptions stream;
 * its events then go to deps.committedEvents before the caller gets its answer.
 */
export function runChange<T>(
  deps: SubscriptionsDeps,
  context: RequestContext,
  change: (scope: ChangeScope) => Promise<T>,
): Promise<T> {
  return runServiceChange(deps, 'subscriptions', context, change);
}
