import { inTransaction } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { announceAccountsInvoices as recordAnnouncements } from '../db/account-invoice-store.js';
import type { ReadModelDeps } from './apply-read-model-events.js';
import { requireOrganization } from './change-transaction.js';

/**
 * Invoicing, inside the transaction issuing them and before its commit, names the invoices it is
 * about to commit for an account: from then on the account cannot be deleted without invoicing
 * confirming they were not committed. NOT_FOUND when the account does not exist (any more).
 */
export function announceInvoices(
  deps: ReadModelDeps,
  context: RequestContext,
  accountId: string,
  invoiceIds: readonly string[],
): Promise<void> {
  return announceAccountsInvoices(deps, context, [{ accountId, invoiceIds }]);
}

/**
 * announceInvoices for several accounts in one transaction (invoicing's batch of charges):
 * NOT_FOUND for an account that does not exist, and then nothing is recorded.
 */
export async function announceAccountsInvoices(
  deps: ReadModelDeps,
  context: RequestContext,
  announcements: readonly { accountId: string; invoiceIds: readonly string[] }[],
): Promise<void> {
  const organizationId = requireOrganization(context);
  const checked = announcements.map(({ accountId, invoiceIds }) => {
    if (!isUuid(accountId)) throw AppError.invalidField('account', `"${accountId}" is not a valid UUID.`);
    const bad = invoiceIds.find((id) => !isUuid(id));
    if (bad !== undefined) throw AppError.invalidField('invoices', `"${bad}" is not a valid UUID.`);
    return { accountId: accountId.toLowerCase(), invoiceIds: [...new Set(invoiceIds.map((id) => id.toLowerCase()))] };
  });
  await inTransaction(deps.orm, (em) => recordAnnouncements(em, organizationId, checked, deps.clock.now()));
}
