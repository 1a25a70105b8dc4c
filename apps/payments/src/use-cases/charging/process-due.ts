import { inTransaction } from '@billing/db';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { sendExpiryNotices } from '../card-expiry-notices.js';
import type { PaymentsDeps } from '../deps.js';
import type { Charger } from './charger.js';
import { settleOutstanding } from './settle.js';
import { takeInCardInvoices } from './take-in-invoice.js';

/**
 * The test clock's advance (ProcessDue): takes in the organization's open card invoices (those
 * whose invoice.issued may still be on its way), runs every attempt due up to `until` in order,
 * each at the moment it fell due, and settles the payments with invoicing before it answers; then
 * tells of the cards whose expiry month began by `until` (card_expires_this_month).
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
    const origin = { organizationId, now: until, testClock: true };
    await inTransaction(deps.orm, (em) =>
      takeInCardInvoices(
        em,
        invoices.map((invoice) => ({ invoice, origin })),
      ),
    );
  }
  const ran = await charger.runDue({ organization_id: organizationId }, until, (job) => job.next_attempt_at ?? until);
  await settleOutstanding(deps, organizationId);
  const organization = await deps.directory.organization(context);
  await sendExpiryNotices(deps, { id: organizationId, timeZone: organization.timeZone }, until);
  return ran;
}
