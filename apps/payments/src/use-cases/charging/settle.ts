import { markSettled, unsettledAttempt } from '../../db/charge-store.js';
import { PaymentAttemptEntity } from '../../db/entities/payment-attempt.entity.js';
import { localDate } from '../../domain/amounts.js';
import type { PaymentsDeps } from '../deps.js';
import { systemContext } from './run-attempt.js';

/**
 * Tells invoicing that a succeeded attempt paid its invoice (invoice.paid), then marks the attempt
 * settled. Invoicing's SettleCardPayment is idempotent, so a settlement repeated after a failure
 * here changes nothing; an unsettled attempt is retried by the worker and the test clock's advance.
 */
export async function settleAttempt(deps: PaymentsDeps, attemptId: string): Promise<boolean> {
  const attempt = await unsettledAttempt(deps.orm.em.fork(), attemptId);
  if (!attempt) return true;
  const context = systemContext(attempt.organization_id);
  try {
    const organization = await deps.directory.organization(context);
    const paidAt = attempt.completed_at ?? attempt.attempted_at;
    await deps.invoicing.settle(context, attempt.invoice_id, attempt.id, localDate(paidAt, organization.timeZone));
  } catch (error) {
    deps.logger.warn(
      { err: error, invoice: attempt.invoice_id, attempt: attempt.id },
      'settling a card payment failed; retried later',
    );
    return false;
  }
  await markSettled(deps.orm.em.fork(), attempt.id, deps.clock.now());
  return true;
}

/** Settles every succeeded attempt not settled yet (of one organization, or all). */
export async function settleOutstanding(deps: PaymentsDeps, organizationId?: string): Promise<void> {
  const unsettled = await deps.orm.em
    .fork()
    .find(
      PaymentAttemptEntity,
      { outcome: 'succeeded', settled_at: null, ...(organizationId ? { organization_id: organizationId } : {}) },
      { fields: ['id'], limit: 500 },
    );
  for (const attempt of unsettled) await settleAttempt(deps, attempt.id);
}
