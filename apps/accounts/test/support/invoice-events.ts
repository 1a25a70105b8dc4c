import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';

export interface InvoiceEventInput {
  organizationId: string;
  invoice: string;
  account: string;
  eventType: 'issued' | 'paid' | 'credited' | 'updated';
  status: 'open' | 'paid' | 'credited';
  balance: string;
  currency?: string;
  /** Invoice.version: 1 when issued, +1 per change published. */
  version: number;
}

/** An `invoicing.invoice.<type>` envelope as the invoicing service's outbox writes it. */
export function invoiceChanged(input: InvoiceEventInput): EventEnvelope {
  const occurred = new Date(Date.UTC(2026, 0, 20, 10, input.version));
  const payload = invoiceEventsV1.InvoiceChanged.encode({
    invoice: {
      uuid: input.invoice,
      invoice_number: '1',
      external_invoice_number: '',
      account: input.account,
      account_code: 'acme',
      date: '2026-01-20',
      due_date: '2026-02-03',
      currency: input.currency ?? 'DKK',
      status: input.status,
      collection_method: 'invoice',
      total: '125.00',
      subtotal: '100.00',
      vat: '25.00',
      balance: input.balance,
      imported: false,
      import_source: '',
      lines: [],
      created_date: occurred,
      last_modified_date: occurred,
      is_credit_note: false,
      payment_terms: 14,
      vat_breakdown: [],
      reverse_charge: false,
      vat_note: '',
      language: 'en',
      po_number: '',
      version: input.version,
      reminders: [],
    },
  }).finish();
  return {
    event_id: randomUUID(),
    event_type: `invoice.${input.eventType}`,
    schema_version: 1,
    organization_id: input.organizationId,
    occurred_at: occurred,
    request_id: randomUUID(),
    aggregate_type: 'invoice',
    aggregate_id: input.invoice,
    payload_type: 'billing.events.v1.InvoiceChanged',
    payload: Buffer.from(payload),
  };
}

/** invoicing.invoice.issued of a new open invoice of 125.00 DKK, of an account the read model need not know. */
export function invoiceIssued(organizationId: string): EventEnvelope {
  return invoiceChanged({
    organizationId,
    invoice: randomUUID(),
    account: randomUUID(),
    eventType: 'issued',
    status: 'open',
    balance: '125.00',
    version: 1,
  });
}
