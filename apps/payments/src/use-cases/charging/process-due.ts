import { inTransaction } from '@billing/db';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import type { PaymentsDeps } from '../deps.js';
import type { Charger } from './charger.js';
import { settleOutstanding } from './settle.js';
import { takeInCardInvoice } from './take-in-invoice.js';

/**
 * The test clock's advance (ProcessDue): takes in the organization's open card invoices (those
 * whose invoice.issued may still be on its way), runs every attempt due up to `until` in order,
 * each at the moment it fell due, and settles the payments with invoicing before it answers.
 */
export async function processDue(
  deps: PaymentsDeps,
  charger: Charger,
  context: RequestContext,
  until: Date,
): Promise<string[]> {
  const organizationId = requireOrganization(context);
  const invoices = await deps.invoicing.openCardInvoices(context);
  if (invoices.length > 0) {
    await inTransaction(deps.orm, async (em) => {
      for (const invoice of invoices) {
        await takeInCardInvoice(em, invoice, { organizationId, now: until, testClock: true });
      }
    });
  }
  const ran = await charger.runDue({ organization_id: organizationId }, until, (job) => job.next_attempt_at ?? until);
  await settleOutstanding(deps, organizationId);
  return ran;
}
