import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@billing/observability';
import { accountView } from '../db/account-store.js';
import { AccountEntity } from '../db/entities/account.entity.js';
import type { AccountView } from '../domain/account-view.js';
import { publishAccountEvent } from '../events/account-events.js';
import type { AccountWriteRequest } from './account-write.js';
import { prepareAccountFields } from './account-write.js';
import { runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export async function createAccount(
  deps: AccountsDeps,
  context: RequestContext,
  write: AccountWriteRequest,
): Promise<AccountView> {
  return runChange(deps, context, async (scope) => {
    const fields = await prepareAccountFields(scope, null, write, 'create');
    const row = scope.em.create(AccountEntity, {
      ...fields,
      id: randomUUID(),
      organization_id: scope.organizationId,
      register_status: null,
      industry: '',
      is_archived: false,
      created_at: scope.now,
      updated_at: scope.now,
    });
    await scope.em.flush();
    const view = await accountView(scope.em, scope.organizationId, row);
    scope.audit('account.create', 'account', row.id, { code: row.code });
    publishAccountEvent(scope, 'account.created', view);
    return view;
  });
}
