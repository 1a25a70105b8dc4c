import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { RequestContext } from '@billing/observability';
import { requireOrganization } from '@billing/runtime';
import { invoicedChargeIds } from '../db/invoice-store.js';
import type { InvoicingDeps } from './deps.js';

/**
 * InvoicingService.ConfirmCharges: which of the named charges are on a committed invoice. A charge
 * whose invoice is being made right now is not yet: the account delete asking refuses, which is
 * the safe side (docs/architecture.md "Invoices and account deletion").
 */
export async function confirmCharges(
  deps: Pick<InvoicingDeps, 'orm'>,
  context: RequestContext,
  chargeIds: readonly string[],
): Promise<string[]> {
  const organizationId = requireOrganization(context);
  const bad = chargeIds.find((id) => !isUuid(id));
  if (bad !== undefined) throw AppError.invalidField('uuids', `"${bad}" is not a valid UUID.`);
  const ids = [...new Set(chargeIds.map((id) => id.toLowerCase()))];
  return invoicedChargeIds(deps.orm.em.fork(), organizationId, ids);
}
