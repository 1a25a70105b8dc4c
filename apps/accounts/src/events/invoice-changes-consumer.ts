import type { Clock } from '@billing/clock';
import { type EventEnvelope, type EventsLogger, type RunningConsumer, subjectFor } from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';
import { recordInvoiceState, recordInvoiceStates } from '../db/account-invoice-store.js';
import { InvalidInvoiceEvent, invoiceStateOf } from '../domain/invoice-state.js';
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
export const INVOICE_CHANGED_PAYLOAD = 'billing.events.v1.InvoiceChanged';

/** `${schema}-invoice-changes`: shared by the replicas of a schema, one per test schema. */
export function invoiceChangesConsumerName(schema: string): string {
  return `${schema}-invoice-changes`;
}

/**
 * Keeps account_invoice up to date from `invoicing.invoice.*` (issued, paid, credited, updated):
 * each event carries the invoice's full state after the change, so only the latest state per
 * invoice is kept, ordered by the invoice's version.
 */
export function startInvoiceChangesConsumer(options: ReadModelConsumerOptions): Promise<RunningConsumer> {
  return startReadModelConsumer(options, {
    defaultProducer: INVOICING_PRODUCER,
    // issued, paid, credited and updated: subjectFor checks the producer, the wildcard is added here.
    filterSubject: (producer) => `${subjectFor(producer, 'invoice')}.*`,
    handle: invoiceChangedHandler(options),
    handleBatch: invoiceChangedBatchHandler(options),
  });
}

const LOG: OutcomeLog = {
  fields: (envelope) => ({
    event_id: envelope.event_id,
    event_type: envelope.event_type,
    invoice: envelope.aggregate_id,
  }),
  otherOrganization: 'invoice event names an invoice of another organization; ignored',
  applied: 'invoice event applied',
};

/** invoice.* events applied and logged, for both delivery paths (read-model-handler.ts). */
export function invoiceChangedHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelHandler {
  return loggedReadModelHandler(options, applyInvoiceChanged, LOG);
}

/** invoiceChangedHandler for a batch: the same rows in a few statements (recordLatestStates). */
export function invoiceChangedBatchHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelBatchHandler {
  return loggedReadModelBatchHandler(options, applyInvoicesChanged, LOG);
}

/**
 * What one `invoice.*` envelope stores. A payload this model cannot use throws
 * InvalidInvoiceEvent: the consumer retries it a few times, then sets it aside as poison and logs it.
 */
function invoiceStateOfEvent(envelope: EventEnvelope) {
  const bytes = payloadOfType(envelope, INVOICE_CHANGED_PAYLOAD, InvalidInvoiceEvent);
  const { invoice } = invoiceEventsV1.InvoiceChanged.decode(bytes);
  return invoiceStateOf(envelope.organization_id, invoice);
}

/** One `invoice.*` envelope applied in the caller's transaction. */
const applyInvoiceChanged: ApplyReadModelEvent = (em, envelope, now) =>
  recordInvoiceState(em, invoiceStateOfEvent(envelope), now);

const applyInvoicesChanged: ApplyReadModelEvents = (em, envelopes, now) =>
  recordInvoiceStates(em, envelopes.map(invoiceStateOfEvent), now);
