import { markSettled, type SettleableAttempt, unsettledAttempt } from '../../db/charge-store.js';
import { PaymentAttemptEntity } from '../../db/entities/payment-attempt.entity.js';
import { localDate } from '../../domain/amounts.js';
import type { OrganizationFacts } from '../../domain/directory.js';
import type { PaymentsDeps } from '../deps.js';
import { systemContext } from './run-attempt.js';

/**
 * Tells invoicing that succeeded attempts paid their invoices (invoice.paid), then marks those it
 * confirmed settled. Invoicing's SettleCardPayment is idempotent, so a settlement repeated after a
 * failure here changes nothing; an unsettled attempt is retried by the worker and the test clock's
 * advance.
 */
export async function settleAttempts(deps: PaymentsDeps, attempts: readonly SettleableAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const organizations = new Map<string, Promise<OrganizationFacts>>();
  const settled: string[] = [];
  await Promise.all(
    attempts.map(async (attempt) => {
      const context = systemContext(attempt.organization_id);
      try {
        let organization = organizations.get(attempt.organization_id);
        if (!organization) {
          organization = deps.directory.organization(context);
          organizations.set(attempt.organization_id, organization);
        }
        const paidAt = attempt.completed_at ?? attempt.attempted_at;
        const { timeZone } = await organization;
        await deps.invoicing.settle(context, attempt.invoice_id, attempt.id, localDate(paidAt, timeZone));
        settled.push(attempt.id);
      } catch (error) {
        deps.logger.warn(
          { err: error, invoice: attempt.invoice_id, attempt: attempt.id },
          'settling a card payment failed; retried later',
        );
      }
    }),
  );
  await markSettled(deps.orm.em.fork(), settled, deps.clock.now());
}

/** Settles one succeeded attempt not settled yet (nothing when it is settled or did not succeed). */
export async function settleAttempt(deps: PaymentsDeps, attemptId: string): Promise<void> {
  const attempt = await unsettledAttempt(deps.orm.em.fork(), attemptId);
  if (attempt) await settleAttempts(deps, [attempt]);
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
