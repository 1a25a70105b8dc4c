import type { Clock } from '@billing/clock';
import { type EventsLogger, type RunningConsumer, subjectFor } from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';
import { recordInvoiceState } from '../db/account-invoice-store.js';
import { InvalidInvoiceEvent, invoiceStateOf } from '../domain/invoice-state.js';
import { type ReadModelConsumerOptions, startReadModelConsumer } from './read-model-consumer.js';
import {
  type ApplyReadModelEvent,
  loggedReadModelHandler,
  payloadOfType,
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
  });
}

/** invoice.* events applied and logged, for both delivery paths (read-model-handler.ts). */
export function invoiceChangedHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelHandler {
  return loggedReadModelHandler(options, applyInvoiceChanged, {
    fields: (envelope) => ({
      event_id: envelope.event_id,
      event_type: envelope.event_type,
      invoice: envelope.aggregate_id,
    }),
    otherOrganization: 'invoice event names an invoice of another organization; ignored',
    applied: 'invoice event applied',
  });
}

/**
 * One `invoice.*` envelope applied in the caller's transaction. A payload this model cannot use
 * throws InvalidInvoiceEvent: the consumer retries it a few times, then sets it aside as poison
 * and logs it.
 */
const applyInvoiceChanged: ApplyReadModelEvent = async (em, envelope, now) => {
  const bytes = payloadOfType(envelope, INVOICE_CHANGED_PAYLOAD, InvalidInvoiceEvent);
  const { invoice } = invoiceEventsV1.InvoiceChanged.decode(bytes);
  return recordInvoiceState(em, invoiceStateOf(envelope.organization_id, invoice), now);
};
