import { inTransaction } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { type ChangeScope, requireOrganization } from '@billing/runtime';
import { existingInvoiceIds, lockInvoiceIds } from '../db/invoice-store.js';
import type { Directory, InvoicesOfAccount } from '../domain/directory.js';
import type { InvoicingDeps } from './deps.js';

/**
 * Every new invoice (credit notes included) is announced to the accounts service inside the
 * transaction that creates it, before that commits (here before anything of it is written; a batch
 * of charges writes while accounts answers: announceNewInvoicesOfAccounts): first its uuid is locked
 * (lockInvoiceIds, held until this transaction ends), then accounts records it against the
 * account, share-locking the account row. So either the account was deleted before, and accounts
 * answers NOT_FOUND, which fails this transaction (nothing is invoiced to a deleted account), or
 * its delete comes after and finds the announcement, and asks ConfirmInvoices, which waits for this
 * transaction to end. docs/architecture.md "Invoices and account deletion".
 */
export async function announceNewInvoices(
  scope: ChangeScope,
  directory: Pick<Directory, 'announceInvoices'>,
  context: RequestContext,
  accountId: string,
  invoiceIds: readonly string[],
): Promise<void> {
  if (invoiceIds.length === 0) return;
  await lockInvoiceIds(scope.em, invoiceIds);
  await directory.announceInvoices(context, accountId, invoiceIds);
}

/**
 * announceNewInvoices for the new invoices of several accounts (a batch of charges): one lock
 * statement, one call, and `whileAnswering` (the numbering and writing of those invoices) run while
 * accounts answers: nothing it writes is seen before the transaction commits, and this resolves
 * only once both are done, so the caller cannot commit before accounts recorded every invoice. A
 * refusal (NOT_FOUND: an account was deleted) rejects, which rolls the whole transaction back.
 */
export async function announceNewInvoicesOfAccounts<T>(
  scope: ChangeScope,
  directory: Pick<Directory, 'announceAccountsInvoices'>,
  context: RequestContext,
  announcements: readonly InvoicesOfAccount[],
  whileAnswering: () => Promise<T>,
): Promise<T> {
  const ids = announcements.flatMap(({ invoiceIds }) => invoiceIds);
  if (ids.length === 0) return whileAnswering();
  await lockInvoiceIds(scope.em, ids);
  // Promise.all settles on the first failure of either and still handles the other's rejection.
  const [result] = await Promise.all([whileAnswering(), directory.announceAccountsInvoices(context, announcements)]);
  return result;
}

/**
 * InvoicingService.ConfirmInvoices: which of the announced invoices exist. Taking their locks
 * waits for any transaction still creating one of them, so an invoice absent from the answer was
 * rolled back and can never be committed afterwards (its uuid dies with its transaction; a retry
 * makes new ones).
 */
export async function confirmInvoices(
  deps: Pick<InvoicingDeps, 'orm'>,
  context: RequestContext,
  invoiceIds: readonly string[],
): Promise<string[]> {
  const organizationId = requireOrganization(context);
  const ids = askedUuids(invoiceIds);
  if (ids.length === 0) return [];
  return inTransaction(deps.orm, async (em) => {
    await lockInvoiceIds(em, ids);
    return existingInvoiceIds(em, organizationId, ids);
  });
}

/** The uuids a Confirm* call names, each once and lower-cased; 400 on `uuids` for one that is not a uuid. */
export function askedUuids(uuids: readonly string[]): string[] {
  const bad = uuids.find((id) => !isUuid(id));
  if (bad !== undefined) throw AppError.invalidField('uuids', `"${bad}" is not a valid UUID.`);
  return [...new Set(uuids.map((id) => id.toLowerCase()))];
}
