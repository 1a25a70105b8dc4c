import type { RequestContext } from '@billing/observability';
import { markSettled, type SettleableAttempt, unsettledAttempts } from '../../db/charge-store.js';
import { localDate } from '../../domain/amounts.js';
import type { CardSettlement } from '../../domain/directory.js';
import type { PaymentsDeps } from '../deps.js';
import { type OrganizationLookup, organizationLookup, systemContext } from './run-attempt.js';

/**
 * Tells invoicing that succeeded attempts paid their invoices (invoice.paid), one call per
 * organization for all its attempts, then marks those it confirmed settled. Invoicing's
 * SettleCardPayments is idempotent, so a settlement repeated after a failure here changes nothing;
 * an unsettled attempt is retried by the worker and the test clock's advance.
 */
export async function settleAttempts(
  deps: PaymentsDeps,
  attempts: readonly SettleableAttempt[],
  organization: OrganizationLookup = organizationLookup(deps),
): Promise<void> {
  if (attempts.length === 0) return;
  const byOrganization = new Map<string, SettleableAttempt[]>();
  for (const attempt of attempts) {
    const group = byOrganization.get(attempt.organization_id);
    if (group) group.push(attempt);
    else byOrganization.set(attempt.organization_id, [attempt]);
  }
  const settled: SettleableAttempt[] = [];
  await Promise.all(
    [...byOrganization].map(async ([organizationId, group]) => {
      const context = systemContext(organizationId);
      try {
        const { timeZone } = await organization(organizationId);
        const found = await settle(
          deps,
          context,
          group.map((attempt) => ({
            invoiceId: attempt.invoice_id,
            paymentId: attempt.id,
            paidDate: localDate(attempt.completed_at ?? attempt.attempted_at, timeZone),
          })),
        );
        for (const attempt of group) if (found.has(attempt.invoice_id)) settled.push(attempt);
      } catch (error) {
        deps.logger.warn(
          { err: error, invoices: group.map((attempt) => attempt.invoice_id) },
          'settling card payments failed; retried later',
        );
      }
    }),
  );
  await markSettled(deps.orm.em.fork(), settled, deps.clock.now());
}

/** The invoices invoicing confirmed settled: one call for all, or (no batch call) one call each. */
async function settle(
  deps: PaymentsDeps,
  context: RequestContext,
  settlements: readonly CardSettlement[],
): Promise<Set<string>> {
  const { invoicing } = deps;
  if (invoicing.settleMany) return invoicing.settleMany(context, settlements);
  const found = new Set<string>();
  for (const { invoiceId, paymentId, paidDate } of settlements) {
    try {
      await invoicing.settle(context, invoiceId, paymentId, paidDate);
      found.add(invoiceId);
    } catch (error) {
      deps.logger.warn({ err: error, invoice: invoiceId }, 'settling a card payment failed; retried later');
    }
  }
  return found;
}

/** Settles the succeeded attempts not settled yet (of one organization, or all; up to 500 a pass) together. */
export async function settleOutstanding(deps: PaymentsDeps, organizationId?: string): Promise<void> {
  await settleAttempts(deps, await unsettledAttempts(deps.orm.em.fork(), organizationId, 500));
}
