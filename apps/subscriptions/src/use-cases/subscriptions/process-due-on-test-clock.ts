import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { chargeIdsMadeAt } from '../../db/subscription-store.js';
import type { SubscriptionsDeps } from '../deps.js';
import { processAllDue } from './process-due.js';

const TEST_CLOCK_BATCH_SIZE = 500;

/**
 * The test clock's advance: everything of the calling organization due up to `until`, processed
 * now, its events handed over to the accounts read model before the answer; returns the charges
 * it made (they carry `until`), for the caller to wait for their invoices.
 */
export async function processDueOnTestClock(
  deps: SubscriptionsDeps,
  context: RequestContext,
  until: Date | undefined,
): Promise<{ processed: number; charge_ids: string[] }> {
  const organizationId = requireOrganization(context);
  if (!context.organizationTime || !until) {
    throw AppError.refused('NOT_ON_TEST_CLOCK', 'Only an organization on a test clock processes due work on request.');
  }
  const processed = await processAllDue(
    deps.orm,
    { now: until, testClockOrganization: organizationId, batchSize: TEST_CLOCK_BATCH_SIZE, context },
    { committedEvents: deps.committedEvents },
  );
  return { processed, charge_ids: await chargeIdsMadeAt(deps.orm.em.fork(), organizationId, until) };
}
