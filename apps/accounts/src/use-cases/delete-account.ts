import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { accountChargesToConfirm, forgetInvoicedCharges } from '../db/account-charge-store.js';
import { accountInvoices, forgetAnnouncements } from '../db/account-invoice-store.js';
import { accountView, requireAccountByCode } from '../db/account-store.js';
import { countNonExpiredSubscriptions } from '../db/account-subscription-store.js';
import { PaymentGatewayAccountEntity } from '../db/entities/payment-gateway-account.entity.js';
import { RecipientEntity } from '../db/entities/recipient.entity.js';
import { deletionBlocker } from '../domain/account-deletion.js';
import { publishAccountEvent } from '../events/account-events.js';
import { runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export interface DeleteAccountRequest {
  code: string;
  /** InvoicingService.ConfirmInvoices' answer about the invoices a previous call left unconfirmed. */
  existingInvoices: readonly string[];
  absentInvoices: readonly string[];
  /** InvoicingService.ConfirmCharges' answer about the charges a previous call left unconfirmed. */
  invoicedCharges: readonly string[];
  uninvoicedCharges: readonly string[];
  /** The caller will not ask invoicing again (DeletionFacts.lastRound). */
  lastRound: boolean;
}

/** Deleted, or not yet: invoicing must first say whether these announced invoices exist and these charges are invoiced. */
export type DeleteAccountOutcome =
  | { deleted: true }
  | { deleted: false; unconfirmedInvoices: string[]; unconfirmedCharges: string[] };

/**
 * gaps.md §3: refused while the account has invoices or non-expired subscriptions. The account row
 * is locked for the whole change, so no invoice can be announced for it meanwhile
 * (announceInvoices share-locks it). An invoice invoicing announced but whose state has not
 * arrived yet may or may not have been committed: the caller asks invoicing and calls again
 * (docs/architecture.md "Invoices and account deletion"). Likewise for the charges of its expired
 * subscriptions that invoicing has not yet confirmed invoiced: one still on its way refuses.
 */
export async function deleteAccount(
  deps: AccountsDeps,
  context: RequestContext,
  request: DeleteAccountRequest,
): Promise<DeleteAccountOutcome> {
  return runChange(deps, context, async (scope) => {
    const row = await requireAccountByCode(scope.em, scope.organizationId, request.code, { lock: true });
    const invoices = await accountInvoices(scope.em, scope.organizationId, row.id);
    const blocker = deletionBlocker({
      invoices,
      charges: await accountChargesToConfirm(scope.em, scope.organizationId, row.id),
      confirmed: {
        existing: request.existingInvoices,
        absent: request.absentInvoices,
        invoicedCharges: request.invoicedCharges,
        uninvoicedCharges: request.uninvoicedCharges,
      },
      nonExpiredSubscriptions: await countNonExpiredSubscriptions(scope.em, scope.organizationId, row.id),
      lastRound: request.lastRound,
    });
    if (blocker.kind === 'invoices') {
      throw AppError.refused('ACCOUNT_HAS_INVOICES', 'An account with invoices cannot be deleted.');
    }
    if (blocker.kind === 'subscriptions') {
      throw AppError.refused(
        'ACCOUNT_HAS_SUBSCRIPTIONS',
        'An account with non-expired subscriptions cannot be deleted.',
      );
    }
    // Announcements invoicing confirmed absent were never committed and never will be.
    await forgetAnnouncements(scope.em, scope.organizationId, row.id, blocker.forget);
    // Charges invoicing confirmed invoiced: their invoices hold the delete back if they are this account's.
    await forgetInvoicedCharges(scope.em, scope.organizationId, row.id, blocker.forgetCharges);
    if (blocker.kind === 'unconfirmed') {
      return { deleted: false, unconfirmedInvoices: blocker.invoices, unconfirmedCharges: blocker.charges };
    }
    const lastState = await accountView(scope.em, scope.organizationId, row);
    const owned = { organization_id: scope.organizationId, account_id: row.id };
    await scope.em.nativeDelete(RecipientEntity, owned);
    await scope.em.nativeDelete(PaymentGatewayAccountEntity, owned);
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('account.delete', 'account', row.id, { code: row.code });
    publishAccountEvent(scope, 'account.deleted', lastState);
    return { deleted: true };
  });
}
