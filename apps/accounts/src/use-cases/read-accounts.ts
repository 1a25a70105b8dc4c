import type { PageSpec } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import { type ExportSnapshot, inBatches } from '@billing/exports';
import type { RequestContext } from '@billing/observability';
import { type AccountByCode, findAccountViewByCode } from '../db/account-by-code-query.js';
import { loadAccountViews } from '../db/account-views.js';
import { findAccountsByIds } from '../db/accounts-by-id.js';
import { findAccountPage, streamAccounts } from '../db/list-accounts-query.js';
import { type AccountListFilter, checkAccountListFilter } from '../domain/account-list.js';
import type { AccountView } from '../domain/account-view.js';
import { lookupUuids } from '../domain/uuid.js';
import { requireOrganization } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export async function getAccount(deps: AccountsDeps, context: RequestContext, code: string): Promise<AccountView> {
  return (await readAccount(deps, context, code)).view;
}

/** GET one account: the account and its organization's default payment terms, read together. */
export async function readAccount(deps: AccountsDeps, context: RequestContext, code: string): Promise<AccountByCode> {
  const found = await findAccountViewByCode(deps.pool, requireOrganization(context), code);
  if (!found) throw AppError.notFound();
  return found;
}

/**
 * The organization's accounts named by uuid, with their recipients and without the read model's
 * sets (invoicing's buyers of a batch of charges). Unknown and malformed uuids are left out.
 */
export async function getAccountsByUuid(
  deps: AccountsDeps,
  context: RequestContext,
  uuids: readonly string[],
): Promise<AccountView[]> {
  const organizationId = requireOrganization(context);
  const ids = lookupUuids(uuids);
  if (ids.length === 0) return [];
  const em = deps.orm.em.fork();
  const rows = await findAccountsByIds(em, organizationId, ids);
  return loadAccountViews(em, organizationId, rows, { readModel: false });
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

/** Accounts made views together (their recipients, gateway accounts and read models loaded once per batch). */
const EXPORT_BATCH = 500;

/**
 * The account list's rows for an export, a batch of views at a time: every account matching the
 * list's filters, in its ordering, read with a cursor in the export's snapshot, their related rows
 * read on the snapshot's second connection while the cursor stays open.
 */
export async function exportAccounts(
  snapshot: ExportSnapshot,
  organizationId: string,
  filter: AccountListFilter,
  ordering: string,
): Promise<{ total: number; batches: AsyncIterable<{ views: AccountView[]; read: number }> }> {
  const { count, rows } = await streamAccounts(snapshot, organizationId, checkAccountListFilter(filter), ordering);
  async function* batches() {
    let read = 0;
    for await (const batch of inBatches(rows, EXPORT_BATCH)) {
      read += batch.length;
      yield { views: await loadAccountViews(snapshot.em, organizationId, batch), read };
    }
  }
  return { total: count, batches: batches() };
}
