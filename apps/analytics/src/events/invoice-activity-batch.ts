import type { EventEnvelope } from '@billing/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockAndJournal } from '../db/event-log.js';
import type { InvoiceActivityInput } from '../domain/invoice-activities.js';
import { recordInvoiceActivities } from '../use-cases/record-invoice-activities.js';
import { activitiesCreatedInsert } from './activity-created-batch.js';
import { INVOICE_ACTIVITY, invoiceActivityOf } from './invoice-activity-mapper.js';

/** The payload types a batch records invoice activities from; any other fails it (then one by one). */
const BATCHED_PAYLOADS = new Set(['billing.events.v1.InvoiceChanged', 'billing.events.v1.PaymentAttemptChanged']);

/**
 * The invoices consumer's batch: what handleInvoiceEvent does for each event, in order, with a
 * handful of statements for the whole batch instead of about a dozen per event.
 */
export function handleInvoiceEvents(em: EntityManager, envelopes: readonly EventEnvelope[]): Promise<void> {
  return recordInvoiceActivityEvents(
    em,
    envelopes.filter((envelope) => envelope.event_type in INVOICE_ACTIVITY),
  );
}

/**
 * A message handled alone (one that arrived by itself, or one of a failed batch retried one by one)
 * as a batch of one when its payload is batched, otherwise as `handleOne`: the same effects as
 * `handleOne` (the batch tests compare the two) with fewer statements (no activity mark, no
 * activity read back one by one).
 */
export const aloneAsBatch =
  (
    handleBatch: (em: EntityManager, envelopes: readonly EventEnvelope[]) => Promise<void>,
    handleOne: (em: EntityManager, envelope: EventEnvelope) => Promise<void>,
  ) =>
  (em: EntityManager, envelope: EventEnvelope): Promise<void> =>
    BATCHED_PAYLOADS.has(envelope.payload_type) ? handleBatch(em, [envelope]) : handleOne(em, envelope);

/** The payments consumer's batch: what handlePaymentEvent does for each event, in order. */
export function handlePaymentEvents(em: EntityManager, envelopes: readonly EventEnvelope[]): Promise<void> {
  return recordInvoiceActivityEvents(
    em,
    envelopes.filter((envelope) => envelope.event_type === 'payment.succeeded'),
  );
}

/**
 * recordActivityEvent (consumers.ts) for many invoice and payment events (any mix): the organizations
 * locked, the events journaled, their activities recorded and each one's activity.created written
 * with its event's request id and moment.
 */
export async function recordInvoiceActivityEvents(
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
): Promise<void> {
  if (envelopes.length === 0) return;
  const unbatched = envelopes.find((envelope) => !BATCHED_PAYLOADS.has(envelope.payload_type));
  if (unbatched) throw new Error(`${unbatched.event_type} ${unbatched.event_id} is not batched: one by one`);
  // Decoded before the organizations' lock is taken: the three consumers take turns holding it.
  const inputs = envelopes.flatMap((envelope): Array<InvoiceActivityInput & { envelope: EventEnvelope }> => {
    const activity = invoiceActivityOf(envelope);
    return activity ? [{ ...activity, envelope }] : [];
  });
  await lockAndJournal(em, envelopes);
  await recordInvoiceActivities(em, inputs, (activities) =>
    activitiesCreatedInsert(
      em,
      activities.map(({ input: { envelope }, activity }) => ({
        source: {
          organizationId: envelope.organization_id,
          requestId: envelope.request_id || envelope.event_id,
          occurredAt: envelope.occurred_at ?? new Date(0),
        },
        activities: [activity],
      })),
    ),
  );
}
