import { encodeMessage, invoiceEventsV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { InvoiceView } from '../domain/invoice-view.js';
import { invoiceMessage } from '../grpc/invoice-mapper.js';

export type InvoiceEventType =
  | 'invoice.issued'
  | 'invoice.paid'
  | 'invoice.credited'
  | 'invoice.updated'
  | 'invoice.reminder_sent';

/** Subjects this service publishes on (stream INVOICING): invoicing.invoice.issued, ... */
export const INVOICE_EVENT_TYPES: readonly InvoiceEventType[] = [
  'invoice.issued',
  'invoice.paid',
  'invoice.credited',
  'invoice.updated',
  // A payment reminder was sent: the invoice with its reminders, the newest last.
  'invoice.reminder_sent',
];

/** Appends an invoice event carrying the invoice's state after the change, with its lines. */
export function publishInvoiceEvent(scope: ChangeScope, eventType: InvoiceEventType, invoice: InvoiceView): void {
  scope.publish({
    eventType,
    aggregateType: 'invoice',
    aggregateId: invoice.uuid,
    payloadType: 'billing.events.v1.InvoiceChanged',
    payload: encodeMessage(invoiceEventsV1.InvoiceChanged, { invoice: invoiceMessage(invoice) }),
  });
}
