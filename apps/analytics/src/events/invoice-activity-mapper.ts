import { canonicalUuidOrText } from '@billing/domain-kit';
import type { EventEnvelope } from '@billing/events';
import { invoiceEventsV1, paymentEventsV1 } from '@billing/proto';
import type { InvoiceActivityInput } from '../domain/invoice-activities.js';

/** The invoice events activities are made from, and the activity each makes. */
export const INVOICE_ACTIVITY = { 'invoice.issued': 'invoice_sent', 'invoice.paid': 'invoice_paid' } as const;

/**
 * The invoice activity an event makes (invoice.issued / .paid, payment.succeeded), null for the
 * others; a journaled event (a rebuild's replay) is read the same way. Every id in Postgres' form
 * (canonicalUuidOrText): a batch keys organizations and invoices by these strings in memory.
 */
export function invoiceActivityOf(
  envelope: Pick<
    EventEnvelope,
    'event_id' | 'event_type' | 'organization_id' | 'occurred_at' | 'payload_type' | 'payload'
  >,
): InvoiceActivityInput | null {
  const occurredAt = envelope.occurred_at ?? new Date(0);
  if (envelope.payload_type === 'billing.events.v1.PaymentAttemptChanged') {
    if (envelope.event_type !== 'payment.succeeded') return null;
    const { attempt } = paymentEventsV1.PaymentAttemptChanged.decode(envelope.payload);
    if (!attempt) throw new Error(`${envelope.event_type} ${envelope.event_id} has no attempt`);
    // The subscription is the invoice's, as its invoice_sent names it (recordInvoiceActivity).
    return {
      organizationId: canonicalUuidOrText(envelope.organization_id),
      type: 'payment_made',
      invoice: {
        uuid: canonicalUuidOrText(attempt.invoice),
        account: canonicalUuidOrText(attempt.account),
        subscription: null,
      },
      at: attempt.completed_at ?? occurredAt,
    };
  }
  const type = INVOICE_ACTIVITY[envelope.event_type as keyof typeof INVOICE_ACTIVITY];
  if (!type) return null;
  const { invoice } = invoiceEventsV1.InvoiceChanged.decode(envelope.payload);
  if (!invoice) throw new Error(`${envelope.event_type} ${envelope.event_id} has no invoice`);
  const subscription = invoice.lines.find((line) => line.subscription)?.subscription;
  return {
    organizationId: canonicalUuidOrText(envelope.organization_id),
    type,
    invoice: {
      uuid: canonicalUuidOrText(invoice.uuid),
      account: canonicalUuidOrText(invoice.account),
      subscription: subscription ? canonicalUuidOrText(subscription) : null,
    },
    at: occurredAt,
  };
}
