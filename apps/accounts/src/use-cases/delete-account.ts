import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { accountInvoices } from '../db/account-invoice-store.js';
import { accountView, requireAccountByCode } from '../db/account-store.js';
import { countNonExpiredSubscriptions } from '../db/account-subscription-store.js';
import { PaymentGatewayAccountEntity } from '../db/entities/payment-gateway-account.entity.js';
import { RecipientEntity } from '../db/entities/recipient.entity.js';
import { publishAccountEvent } from '../events/account-events.js';
import { runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

/**
 * gaps.md §3: refused while the account has invoices (any status: the read model account_invoice)
 * or non-expired subscriptions (account_subscription).
 */
export async function deleteAccount(deps: AccountsDeps, context: RequestContext, code: string): Promise<void> {
  await runChange(deps, context, async (scope) => {
    const row = await requireAccountByCode(scope.em, scope.organizationId, code, { lock: true });
    if ((await accountInvoices(scope.em, scope.organizationId, row.id)).known > 0) {
      throw AppError.refused('ACCOUNT_HAS_INVOICES', 'An account with invoices cannot be deleted.');
    }
    if ((await countNonExpiredSubscriptions(scope.em, scope.organizationId, row.id)) > 0) {
      throw AppError.refused(
        'ACCOUNT_HAS_SUBSCRIPTIONS',
        'An account with non-expired subscriptions cannot be deleted.',
      );
    }
    const lastState = await accountView(scope.em, scope.organizationId, row);
    const owned = { organization_id: scope.organizationId, account_id: row.id };
    await scope.em.nativeDelete(RecipientEntity, owned);
    await scope.em.nativeDelete(PaymentGatewayAccountEntity, owned);
    scope.em.remove(row);
    await scope.em.flush();
    scope.audit('account.delete', 'account', row.id, { code: row.code });
    publishAccountEvent(scope, 'account.deleted', lastState);
  });
}
