import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@billing/observability';
import { accountView, requireAccountByCode } from '../db/account-store.js';
import { toPaymentGatewayAccountView } from '../db/account-views.js';
import { PaymentGatewayAccountEntity } from '../db/entities/payment-gateway-account.entity.js';
import type { PaymentGatewayAccountView } from '../domain/account-view.js';
import { publishAccountEvent } from '../events/account-events.js';
import { requireOrganization, runChange } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export interface PaymentGatewayAccountInput {
  payment_gateway: string;
  payment_gateway_account_id: string;
}

export async function listPaymentGatewayAccounts(
  deps: AccountsDeps,
  context: RequestContext,
  code: string,
): Promise<PaymentGatewayAccountView[]> {
  const organizationId = requireOrganization(context);
  const em = deps.orm.em.fork();
  const account = await requireAccountByCode(em, organizationId, code);
  const rows = await em.find(
    PaymentGatewayAccountEntity,
    { organization_id: organizationId, account_id: account.id },
    { orderBy: { position: 'asc' } },
  );
  return rows.map(toPaymentGatewayAccountView);
}

/** gaps.md §3: the posted list replaces the account's set. */
export async function setPaymentGatewayAccounts(
  deps: AccountsDeps,
  context: RequestContext,
  code: string,
  items: PaymentGatewayAccountInput[],
): Promise<PaymentGatewayAccountView[]> {
  return runChange(deps, context, async (scope) => {
    const account = await requireAccountByCode(scope.em, scope.organizationId, code);
    await scope.em.nativeDelete(PaymentGatewayAccountEntity, {
      organization_id: scope.organizationId,
      account_id: account.id,
    });
    const rows = items.map((item, position) =>
      scope.em.create(PaymentGatewayAccountEntity, {
        id: randomUUID(),
        organization_id: scope.organizationId,
        account_id: account.id,
        payment_gateway: item.payment_gateway,
        payment_gateway_account_id: item.payment_gateway_account_id,
        position,
      }),
    );
    account.updated_at = scope.now;
    await scope.em.flush();
    scope.audit('account.set_payment_gateways', 'account', account.id, { count: rows.length });
    publishAccountEvent(scope, 'account.updated', await accountView(scope.em, scope.organizationId, account));
    return rows.map(toPaymentGatewayAccountView);
  });
}
