import { invoiceEventsV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { DraftLineView } from '../draft-lines/view.js';
import { draftLineMessage } from '../grpc/draft-line-mapper.js';

/**
 * Subjects (stream INVOICING): invoicing.draft_invoice_line.created, .updated, .deleted and
 * .invoiced (the line as put on an invoice; from then on it is no longer a draft line).
 */
export const DRAFT_LINE_EVENT_TYPES = [
  'draft_invoice_line.created',
  'draft_invoice_line.updated',
  'draft_invoice_line.deleted',
  'draft_invoice_line.invoiced',
] as const;

export type DraftLineEventType = (typeof DRAFT_LINE_EVENT_TYPES)[number];

/** Appends a draft line event carrying the line's new (for deleted: last) state. */
export function publishDraftLineEvent(scope: ChangeScope, eventType: DraftLineEventType, line: DraftLineView): void {
  scope.publish({
    eventType,
    aggregateType: 'draft_invoice_line',
    aggregateId: line.uuid,
    payloadType: 'billing.events.v1.DraftInvoiceLineChanged',
    payload: invoiceEventsV1.DraftInvoiceLineChanged.encode({ line: draftLineMessage(line) }).finish(),
  });
}
