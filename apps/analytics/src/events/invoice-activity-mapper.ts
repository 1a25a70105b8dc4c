import { canonicalUuidOrText } from '@billing/domain-kit';
import type { EventEnvelope } from '@billing/events';
import { paymentEventsV1, peekMessage, peekRepeatedMessages, peekStrings } from '@billing/proto';
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
  const invoice = invoiceFieldsOf(envelope.payload);
  if (!invoice) throw new Error(`${envelope.event_type} ${envelope.event_id} has no invoice`);
  return {
    organizationId: canonicalUuidOrText(envelope.organization_id),
    type,
    invoice: {
      uuid: canonicalUuidOrText(invoice.uuid),
      account: canonicalUuidOrText(invoice.account),
      subscription: invoice.subscription ? canonicalUuidOrText(invoice.subscription) : null,
    },
    at: occurredAt,
  };
}

/**
 * The three fields of an InvoiceChanged an activity takes, read without decoding the rest of the
 * invoice (its parties, texts, amounts and the lines' other fields; libs/proto peekStrings):
 * InvoiceChanged.invoice (1); its uuid (1), account (4) and lines (19); the subscription (19) of
 * the first line that names one. For a well-formed payload these are the values
 * InvoiceChanged.decode gives (libs/proto's peek tests compare the two; the mapper's test covers
 * lines before the one naming a subscription); null when the event carries no invoice.
 */
function invoiceFieldsOf(payload: Uint8Array): { uuid: string; account: string; subscription: string } | null {
  const invoice = peekMessage(payload, 1);
  if (invoice === undefined) return null;
  const [uuid = '', account = ''] = peekStrings(invoice, [1, 4]);
  let subscription = '';
  for (const line of peekRepeatedMessages(invoice, 19)) {
    subscription = peekStrings(line, [19])[0] ?? '';
    if (subscription) break;
  }
  return { uuid, account, subscription };
}
