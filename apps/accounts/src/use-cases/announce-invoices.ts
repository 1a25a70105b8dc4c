import { inTransaction } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { announceInvoices as recordAnnouncements } from '../db/account-invoice-store.js';
import type { ReadModelDeps } from './apply-read-model-events.js';
import { requireOrganization } from './change-transaction.js';

/**
 * Invoicing, inside the transaction issuing them and before its commit, names the invoices it is
 * about to commit for an account: from then on the account cannot be deleted without invoicing
 * confirming they were not committed. NOT_FOUND when the account does not exist (any more).
 */
export async function announceInvoices(
  deps: ReadModelDeps,
  context: RequestContext,
  accountId: string,
  invoiceIds: readonly string[],
): Promise<void> {
  const organizationId = requireOrganization(context);
  if (!isUuid(accountId)) throw AppError.invalidField('account', `"${accountId}" is not a valid UUID.`);
  const bad = invoiceIds.find((id) => !isUuid(id));
  if (bad !== undefined) throw AppError.invalidField('invoices', `"${bad}" is not a valid UUID.`);
  const ids = [...new Set(invoiceIds.map((id) => id.toLowerCase()))];
  await inTransaction(deps.orm, (em) =>
    recordAnnouncements(em, organizationId, accountId.toLowerCase(), ids, deps.clock.now()),
  );
}
