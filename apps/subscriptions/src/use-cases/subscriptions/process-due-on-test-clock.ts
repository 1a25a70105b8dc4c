import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { chargeIdsAwaitingInvoice, confirmChargesInvoiced } from '../../db/subscription-store.js';
import type { SubscriptionsDeps } from '../deps.js';
import { processAllDue } from './process-due.js';

const TEST_CLOCK_BATCH_SIZE = 500;

function requireTestClock(context: RequestContext): string {
  const organizationId = requireOrganization(context);
  if (!context.organizationTime) {
    throw AppError.refused('NOT_ON_TEST_CLOCK', 'Only an organization on a test clock processes due work on request.');
  }
  return organizationId;
}

/**
 * The test clock's advance: everything of the calling organization due up to `until`, processed
 * now, its events handed over to the accounts read model before the answer. Returns every charge of
 * the organization that no advance has yet seen invoiced, not only those made now: a charge an API
 * call made just before the advance may still be on its way to invoicing, and an earlier advance
 * may have failed before its wait ended. The caller waits for them, then confirms them
 * (confirmChargesInvoicedOnTestClock).
 */
export async function processDueOnTestClock(
  deps: SubscriptionsDeps,
  context: RequestContext,
  until: Date | undefined,
): Promise<{ processed: number; charge_ids: string[] }> {
  const organizationId = requireTestClock(context);
  if (!until) throw AppError.invalidField('until', 'This field is required.');
  const processed = await processAllDue(
    deps.orm,
    { now: until, testClockOrganization: organizationId, batchSize: TEST_CLOCK_BATCH_SIZE, context },
    { committedEvents: deps.committedEvents },
  );
  return { processed, charge_ids: await chargeIdsAwaitingInvoice(deps.orm.em.fork(), organizationId) };
}

/** The advance saw these charges invoiced: later advances no longer wait for them. */
export async function confirmChargesInvoicedOnTestClock(
  deps: SubscriptionsDeps,
  context: RequestContext,
  chargeIds: readonly string[],
): Promise<void> {
  const organizationId = requireTestClock(context);
  await confirmChargesInvoiced(deps.orm.em.fork(), organizationId, chargeIds);
}
