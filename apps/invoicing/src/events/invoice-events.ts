import { invoiceEventsV1, type invoicingV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { InvoiceRow } from '../db/entities/invoice.entity.js';
import { linesOf } from '../db/invoice-store.js';
import { invoiceMessage } from '../grpc/invoice-mapper.js';

export type InvoiceEventType = 'invoice.issued' | 'invoice.paid' | 'invoice.credited' | 'invoice.updated';

/** Subjects this service publishes on (stream INVOICING): invoicing.invoice.issued, ... */
export const INVOICE_EVENT_TYPES: readonly InvoiceEventType[] = [
  'invoice.issued',
  'invoice.paid',
  'invoice.credited',
  'invoice.updated',
];

/**
 * Publishes a change of an issued invoice: adds one to its `version` (the row is locked by the
 * caller's transaction, so versions never repeat), then appends the event carrying the invoice's
 * state after the change, with its lines. Every change of an issued invoice that a reader may care
 * about goes through here, its balance above all (the accounts read model sums open balances), so
 * a credit note whose credit is used publishes its new balance too. Returns the message published.
 */
export async function publishInvoiceChange(
  scope: ChangeScope,
  eventType: InvoiceEventType,
  row: InvoiceRow,
): Promise<invoicingV1.Invoice> {
  row.version += 1;
  const invoice = invoiceMessage(row, (await linesOf(scope.em, [row.id])).get(row.id) ?? []);
  scope.publish({
    eventType,
    aggregateType: 'invoice',
    aggregateId: invoice.uuid,
    payloadType: 'billing.events.v1.InvoiceChanged',
    payload: invoiceEventsV1.InvoiceChanged.encode({ invoice }).finish(),
  });
  return invoice;
}
