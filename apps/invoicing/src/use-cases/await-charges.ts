import { AppError, StatusCode } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { InvoicedChargeEntity } from '../db/entities/invoiced-charge.entity.js';
import type { InvoicingDeps } from './deps.js';
import { issuePendingNow } from './issue-pending.js';

const POLL_MS = 25;

/**
 * The test clock's wait (its advance answers after it): returns once every named charge is on an
 * invoice, every pending (grouped renewal) invoice of the organization is issued (it does not wait
 * for its group window: the advance has just made every charge of that moment) and the read model
 * hand-overs of that work have ended. Times out with UNAVAILABLE after `timeoutMs`.
 */
export async function awaitCharges(
  deps: InvoicingDeps,
  context: RequestContext,
  chargeIds: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const organizationId = requireOrganization(context);
  const wanted = [...new Set(chargeIds)];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const invoiced =
      wanted.length === 0
        ? 0
        : await deps.orm.em
            .fork()
            .count(InvoicedChargeEntity, { organization_id: organizationId, charge_id: { $in: wanted } });
    if (invoiced === wanted.length) {
      await issuePendingNow(deps, organizationId);
      await deps.handOvers?.idle();
      return;
    }
    if (Date.now() >= deadline) {
      throw new AppError({
        code: StatusCode.UNAVAILABLE,
        reason: 'CHARGES_NOT_INVOICED',
        message: `${wanted.length - invoiced} charges are not invoiced yet.`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
