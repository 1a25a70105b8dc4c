import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import { invoiceEventsV1, type invoicingV1 } from '@billing/proto';

export interface DraftLineEventInput {
  organizationId: string;
  line: string;
  account: string;
  eventType: 'created' | 'updated' | 'deleted' | 'invoiced';
  /** DraftLine.version: 1 on creation, +1 per committed change (invoicing included). */
  version: number;
  /** DraftLine.created_date (default 2026-01-20T10:00:00Z). */
  created?: string;
  description?: string;
}

/**
 * An `invoicing.draft_invoice_line.<type>` envelope as the invoicing service's outbox writes it:
 * the line's full state (fields this model only stores included).
 */
export function draftLineChanged(input: DraftLineEventInput): EventEnvelope {
  const line = draftLine(input);
  const payload = invoiceEventsV1.DraftInvoiceLineChanged.encode({ line }).finish();
  return {
    event_id: randomUUID(),
    event_type: `draft_invoice_line.${input.eventType}`,
    schema_version: 1,
    organization_id: input.organizationId,
    occurred_at: line.last_modified_date,
    request_id: randomUUID(),
    aggregate_type: 'draft_invoice_line',
    aggregate_id: input.line,
    payload_type: 'billing.events.v1.DraftInvoiceLineChanged',
    payload: Buffer.from(payload),
  };
}

/** The DraftLine an event of `input` carries, as account reads must return it. */
export function draftLine(input: DraftLineEventInput): invoicingV1.DraftLine {
  const created = new Date(input.created ?? '2026-01-20T10:00:00Z');
  return {
    uuid: input.line,
    account: input.account,
    description: input.description ?? 'Consulting',
    vat_type: 'standard',
    collect_vat: true,
    date_from: '2026-01-01',
    date_to: '2026-01-31',
    price: '120.50',
    quantity: '3',
    discount_percentage: '10',
    currency: 'DKK',
    include_in_next_renewal_invoice: false,
    created_date: created,
    last_modified_date: new Date(created.getTime() + input.version * 60_000),
    reference_person: 'Jane',
    account_reference_person: '',
    po_number: 'PO-7',
    case_number: '',
    custom_fields: { project: 'apollo' },
    version: input.version,
  };
}
