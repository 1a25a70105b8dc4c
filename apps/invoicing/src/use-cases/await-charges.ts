import { AppError, StatusCode } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { InvoicedChargeEntity } from '../db/entities/invoiced-charge.entity.js';
import type { InvoicingDeps } from './deps.js';
import { issuePendingNow } from './issue-pending.js';

const POLL_MS = 25;

/**
 * Returns once every named charge is on an invoice and those invoices are issued (a grouped
 * renewal invoice does not wait for its window: the test clock has just made every charge of that
 * moment), and the read model hand-overs of that work have ended. Times out with UNAVAILABLE
 * after `timeoutMs`.
 */
export async function awaitCharges(
  deps: InvoicingDeps,
  context: RequestContext,
  chargeIds: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const organizationId = requireOrganization(context);
  if (chargeIds.length === 0) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const invoiced = await deps.orm.em
      .fork()
      .find(InvoicedChargeEntity, { organization_id: organizationId, charge_id: { $in: [...chargeIds] } });
    if (invoiced.length === new Set(chargeIds).size) {
      await issuePendingNow(deps, organizationId, [...new Set(invoiced.map((row) => row.invoice_id))]);
      await deps.handOvers?.idle();
      return;
    }
    if (Date.now() >= deadline) {
      throw new AppError({
        code: StatusCode.UNAVAILABLE,
        reason: 'CHARGES_NOT_INVOICED',
        message: `${chargeIds.length - invoiced.length} charges are not invoiced yet.`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
