/**
 * The invoice.issued consumer acknowledges at once (no transaction, no inbox row) the invoices
 * payments takes nothing of in: those not collected by card, decided from the event alone. A card
 * invoice, and an event without an invoice (poison, named by the handler), go to the handler.
 */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';
import { describe, expect, it } from 'vitest';
import { notCollectedByCard } from '../src/events/invoice-issued-consumer.js';

const issuedAt = new Date('2026-03-01T09:00:00.000Z');

function issued(collectionMethod: string | null): EventEnvelope {
  const invoice = randomUUID();
  const payload = invoiceEventsV1.InvoiceChanged.encode(
    collectionMethod === null
      ? {}
      : {
          invoice: {
            uuid: invoice,
            invoice_number: '1',
            external_invoice_number: '',
            account: randomUUID(),
            account_code: 'acme',
            date: '2026-03-01',
            due_date: '2026-03-15',
            currency: 'DKK',
            status: 'open',
            collection_method: collectionMethod,
            total: '125.00',
            subtotal: '100.00',
            vat: '25.00',
            balance: '125.00',
            imported: false,
            import_source: '',
            lines: [],
            created_date: issuedAt,
            last_modified_date: issuedAt,
            is_credit_note: false,
            payment_terms: 14,
            vat_breakdown: [],
            reverse_charge: false,
            vat_note: '',
            language: 'en',
            po_number: '',
            version: 1,
            reminders: [],
          },
        },
  ).finish();
  return {
    event_id: randomUUID(),
    event_type: 'invoice.issued',
    schema_version: 1,
    organization_id: randomUUID(),
    occurred_at: issuedAt,
    request_id: randomUUID(),
    aggregate_type: 'invoice',
    aggregate_id: invoice,
    payload_type: 'billing.events.v1.InvoiceChanged',
    payload: Buffer.from(payload),
  };
}

describe('notCollectedByCard', () => {
  it('ignores invoices collected otherwise than by card', () => {
    expect(notCollectedByCard(issued('invoice'))).toBe(true);
    expect(notCollectedByCard(issued('direct_debit'))).toBe(true);
  });

  it('hands card invoices and events without an invoice to the handler', () => {
    expect(notCollectedByCard(issued('payment_card'))).toBe(false);
    expect(notCollectedByCard(issued(null))).toBe(false);
  });
});
