import { isUuid } from '@billing/domain-kit';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { paymentAttemptView } from '../db/attempt-view.js';
import { PaymentAttemptEntity } from '../db/entities/payment-attempt.entity.js';
import type { PaymentAttemptView } from '../domain/payment-attempt.js';
import type { PaymentsDeps } from './deps.js';

/** The payment attempts of one invoice of the calling organization, oldest first. */
export async function listPaymentAttempts(
  deps: PaymentsDeps,
  context: RequestContext,
  invoiceId: string,
): Promise<PaymentAttemptView[]> {
  if (!isUuid(invoiceId)) return [];
  const rows = await deps.orm.em
    .fork()
    .find(
      PaymentAttemptEntity,
      { organization_id: requireOrganization(context), invoice_id: invoiceId.toLowerCase() },
      { orderBy: { number: 'asc' } },
    );
  return rows.map(paymentAttemptView);
}
