import type { ChangeScope } from '@billing/runtime';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import { invoiceViewWithLines } from '../db/invoice-view.js';
import type { InvoiceView } from '../domain/invoice-view.js';
import { type InvoiceEventType, publishInvoiceEvent } from '../events/invoice-events.js';

/**
 * Publishes a change of an issued invoice: adds one to its `version` (the row is locked by the
 * caller's transaction, so versions never repeat), then appends the event carrying the invoice's
 * state after the change, with its lines. Every change of an issued invoice that a reader may care
 * about goes through here, its balance above all (the accounts read model sums open balances), so
 * a credit note whose credit is used publishes its new balance too. Returns the invoice published.
 */
export async function publishInvoiceChange(
  scope: ChangeScope,
  eventType: InvoiceEventType,
  row: InvoiceRow,
): Promise<InvoiceView> {
  row.version += 1;
  const invoice = await invoiceViewWithLines(scope.em, row);
  publishInvoiceEvent(scope, eventType, invoice);
  return invoice;
}
