import type { RequestContext } from '@billing/observability';
import { type ChangeScope, runChange as runServiceChange } from '@billing/runtime';
import type { AccountsDeps } from './deps.js';

export { type ChangeScope, requireOrganization } from '@billing/runtime';

/** One change, one transaction (with its audit row and outbox events) on the accounts stream. */
export function runChange<T>(
  deps: AccountsDeps,
  context: RequestContext,
  change: (scope: ChangeScope) => Promise<T>,
): Promise<T> {
  return runServiceChange(deps, 'accounts', context, change);
}
