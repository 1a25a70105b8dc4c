import type { RequestContext } from '@billing/observability';
import { accountView, requireAccountByCode } from '../db/account-store.js';
import type { AccountView } from '../domain/account-view.js';
import { publishAccountEvent } from '../events/account-events.js';
import type { AccountWriteRequest } from './account-write.js';
import { prepareAccountFields } from './account-write.js';
import { runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

/** PUT (`replace`: required fields must be sent) or PATCH; the code itself may change. */
export async function updateAccount(
  deps: AccountsDeps,
  context: RequestContext,
  code: string,
  write: AccountWriteRequest,
  replace: boolean,
): Promise<AccountView> {
  return runChange(deps, context, async (scope) => {
    const row = await requireAccountByCode(scope.em, scope.organizationId, code);
    const fields = await prepareAccountFields(scope, row as never, write, replace ? 'replace' : 'patch');
    scope.em.assign(row, { ...fields, updated_at: scope.now });
    await scope.em.flush();
    const view = await accountView(scope.em, scope.organizationId, row);
    scope.audit(replace ? 'account.replace' : 'account.update', 'account', row.id, { fields: [...write.present] });
    publishAccountEvent(scope, 'account.updated', view);
    return view;
  });
}
