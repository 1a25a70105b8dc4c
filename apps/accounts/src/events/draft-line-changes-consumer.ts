import type { Clock } from '@billing/clock';
import { type EventEnvelope, type EventsLogger, type RunningConsumer, subjectFor } from '@billing/events';
import { encodeMessage, invoiceEventsV1, invoicingV1 } from '@billing/proto';
import { recordDraftLineState, recordDraftLineStates } from '../db/account-draft-line-store.js';
import { draftLineStateOf, InvalidDraftLineEvent } from '../domain/draft-line-state.js';
import { type ReadModelConsumerOptions, startReadModelConsumer } from './read-model-consumer.js';
import {
  type ApplyReadModelEvent,
  type ApplyReadModelEvents,
  loggedReadModelBatchHandler,
  loggedReadModelHandler,
  type OutcomeLog,
  payloadOfType,
  type ReadModelBatchHandler,
  type ReadModelHandler,
} from './read-model-handler.js';

const INVOICING_PRODUCER = 'invoicing';
export const DRAFT_LINE_CHANGED_PAYLOAD = 'billing.events.v1.DraftInvoiceLineChanged';

/** `${schema}-draft-line-changes`: shared by the replicas of a schema, one per test schema. */
export function draftLineChangesConsumerName(schema: string): string {
  return `${schema}-draft-line-changes`;
}

/**
 * Keeps account_draft_line up to date from `invoicing.draft_invoice_line.*` (created, updated,
 * deleted, invoiced): each event carries the line's full state, so only the latest state per line
 * is kept, ordered by the line's version; deleted and invoiced leave a tombstone.
 */
export function startDraftLineChangesConsumer(options: ReadModelConsumerOptions): Promise<RunningConsumer> {
  return startReadModelConsumer(options, {
    defaultProducer: INVOICING_PRODUCER,
    // created, updated, deleted and invoiced: subjectFor checks the producer, the wildcard is added here.
    filterSubject: (producer) => `${subjectFor(producer, 'draft_invoice_line')}.*`,
    handle: draftLineChangedHandler(options),
    handleBatch: draftLineChangedBatchHandler(options),
  });
}

const LOG: OutcomeLog = {
  fields: (envelope) => ({
    event_id: envelope.event_id,
    event_type: envelope.event_type,
    line: envelope.aggregate_id,
  }),
  otherOrganization: 'draft line event names a line of another organization; ignored',
  applied: 'draft line event applied',
};

/** draft_invoice_line.* events applied and logged, for both delivery paths (read-model-handler.ts). */
export function draftLineChangedHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelHandler {
  return loggedReadModelHandler(options, applyDraftLineChanged, LOG);
}

/** draftLineChangedHandler for a batch: the same rows in a few statements (recordLatestStates). */
export function draftLineChangedBatchHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelBatchHandler {
  return loggedReadModelBatchHandler(options, applyDraftLinesChanged, LOG);
}

/**
 * What one `draft_invoice_line.*` envelope stores. A payload this model cannot use throws
 * InvalidDraftLineEvent: the consumer retries it a few times, then sets it aside as poison and
 * logs it.
 */
function draftLineChangeOf(envelope: EventEnvelope) {
  const bytes = payloadOfType(envelope, DRAFT_LINE_CHANGED_PAYLOAD, InvalidDraftLineEvent);
  const payload = invoiceEventsV1.DraftInvoiceLineChanged.decode(bytes);
  return {
    state: draftLineStateOf(envelope.organization_id, envelope.event_type, payload.line),
    // Re-encoded from the decoded message: the snapshot is exactly the DraftLine, nothing else of the event.
    snapshot: encodeMessage(invoicingV1.DraftLine, payload.line!),
  };
}

/** One `draft_invoice_line.*` envelope applied in the caller's transaction. */
const applyDraftLineChanged: ApplyReadModelEvent = async (em, envelope, now) => {
  const change = draftLineChangeOf(envelope);
  return recordDraftLineState(em, change.state, change.snapshot, now);
};

const applyDraftLinesChanged: ApplyReadModelEvents = (em, envelopes, now) =>
  recordDraftLineStates(em, envelopes.map(draftLineChangeOf), now);
