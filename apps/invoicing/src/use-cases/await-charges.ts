import { AppError, StatusCode } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { InvoicedChargeEntity } from '../db/entities/invoiced-charge.entity.js';
import { rejectedCharges } from '../db/rejected-charge-store.js';
import type { InvoicingDeps } from './deps.js';
import { issuePendingNow } from './issue-pending.js';

const POLL_MS = 25;

/**
 * The test clock's wait (its advance answers after it): returns once every named charge is on an
 * invoice, every pending (grouped renewal) invoice of the organization is issued (it does not wait
 * for its group window: the advance has just made every charge of that moment) and the read model
 * hand-overs of that work have ended. Times out with UNAVAILABLE after `timeoutMs`; fails at once
 * (INTERNAL, naming them) when one of the charges was set aside as poison by the charge consumer.
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
    await failOnChargesSetAside(deps, organizationId, wanted);
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

/** A charge set aside will never be invoiced: waiting on would only end at the timeout. */
async function failOnChargesSetAside(
  deps: InvoicingDeps,
  organizationId: string,
  chargeIds: readonly string[],
): Promise<void> {
  const rejected = await rejectedCharges(deps.orm.em.fork(), organizationId, chargeIds);
  if (rejected.length === 0) return;
  throw AppError.internal(
    `${rejected.length} charges could not be invoiced and were set aside: ` +
      rejected.map(({ chargeId, reason }) => `${chargeId} (${reason})`).join('; '),
  );
}
