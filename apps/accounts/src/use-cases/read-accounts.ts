import type { PageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { findAccountViewByCode } from '../db/account-by-code-query.js';
import { loadAccountViews } from '../db/account-views.js';
import { findAccountPage } from '../db/list-accounts-query.js';
import { type AccountListFilter, checkAccountListFilter } from '../domain/account-list.js';
import type { AccountView } from '../domain/account-view.js';
import { requireOrganization } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export async function getAccount(deps: AccountsDeps, context: RequestContext, code: string): Promise<AccountView> {
  const view = await findAccountViewByCode(deps.pool, requireOrganization(context), code);
  if (!view) throw AppError.notFound();
  return view;
}

export async function listAccounts(
  deps: AccountsDeps,
  context: RequestContext,
  filter: AccountListFilter,
  page: PageSpec,
): Promise<{ count: number; accounts: AccountView[] }> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const { rows, count } = await findAccountPage(em, organizationId, checkAccountListFilter(filter), page);
  return { count, accounts: await loadAccountViews(em, organizationId, rows) };
}
