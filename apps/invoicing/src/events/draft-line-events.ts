import { encodeMessage, invoiceEventsV1 } from '@billing/proto';
import type { DraftLineEventType } from '@billing/reference-data';
import type { ChangeScope } from '@billing/runtime';
import type { DraftLineView } from '../domain/draft-lines/draft-line-view.js';
import { draftLineMessage } from '../grpc/draft-line-mapper.js';

/** Appends a draft line event carrying the line's new (for deleted: last) state. */
export function publishDraftLineEvent(scope: ChangeScope, eventType: DraftLineEventType, line: DraftLineView): void {
  scope.publish({
    eventType,
    aggregateType: 'draft_invoice_line',
    aggregateId: line.uuid,
    payloadType: 'billing.events.v1.DraftInvoiceLineChanged',
    payload: encodeMessage(invoiceEventsV1.DraftInvoiceLineChanged, { line: draftLineMessage(line) }),
  });
}
