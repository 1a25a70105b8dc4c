import { inTransaction } from '@billing/db';
import { isUuid } from '@billing/domain-kit';
import {
  type EventBus,
  type EventEnvelope,
  type EventsLogger,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
  subjectFor,
} from '@billing/events';
import { subscriptionEventsV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordRejectedCharge } from '../db/rejected-charge-store.js';
import { receivedCharge } from '../grpc/charge-mapper.js';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { type ChargeToInvoice, invoiceCharges } from '../use-cases/invoice-charge.js';

/** Durable consumer name per schema: `invoicing-charges` in production (shared by replicas), one per test schema. */
export const chargeConsumerName = (schema: string): string => `${schema}-charges`;

/**
 * One charge.created of the subscription engine, in the consumer's transaction `em` (with its inbox
 * row): the charge is invoiced for the event's organization, traced by the request that made it.
 */
export function invoiceChargeCreated(deps: InvoicingDeps, em: EntityManager, envelope: EventEnvelope): Promise<void> {
  return invoiceChargesCreated(deps, em, [envelope]);
}

/**
 * Several charge.created in the consumer's transaction `em` (with their inbox rows), invoiced in
 * their order; `admitNext` is called once the batch holds the number counter of its last
 * organization (invoiceCharges' afterNumbering).
 */
export function invoiceChargesCreated(
  deps: InvoicingDeps,
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
  admitNext?: () => void,
): Promise<void> {
  return invoiceCharges(deps, em, envelopes.map(chargeToInvoice), admitNext ? { afterNumbering: admitNext } : {});
}

function chargeToInvoice(envelope: EventEnvelope): ChargeToInvoice {
  const { charge } = subscriptionEventsV1.ChargeCreated.decode(envelope.payload);
  if (!charge) throw new Error(`charge.created ${envelope.event_id} has no charge`);
  return {
    charge: receivedCharge(charge),
    origin: {
      organizationId: envelope.organization_id,
      requestId: envelope.request_id || envelope.event_id,
      occurredAt: envelope.occurred_at,
    },
  };
}

/**
 * Turns the subscription engine's charge.created events into invoices (exactly once per charge):
 * the events that arrived together in one transaction (a failed batch is retried event by event).
 * A batch that fails after letting the next one in has its charges numbered after that one's.
 */
export function startChargeConsumer(
  deps: InvoicingDeps,
  options: { bus: EventBus; logger: EventsLogger; consumer: string },
): Promise<RunningConsumer> {
  return startConsumer({
    orm: deps.orm,
    bus: options.bus,
    logger: options.logger,
    clock: deps.clock,
    consumer: options.consumer,
    stream: streamNameFor('subscriptions'),
    filterSubject: subjectFor('subscriptions', 'charge.created'),
    handle: (em, envelope) => invoiceChargeCreated(deps, em, envelope),
    batch: true,
    // The next batch makes its calls to accounts while this one writes: it is let in once this one
    // holds its last organization's number counter, and numbers only after this one commits.
    handleBatch: (em, envelopes, admitNext) => invoiceChargesCreated(deps, em, envelopes, admitNext),
    onPoison: (envelope, error) => recordChargeSetAside(deps, envelope, error),
  });
}

/**
 * A charge.created the consumer sets aside is recorded (rejected_charge), so that a test clock
 * advance waiting for the charge fails at once rather than at its timeout. An event without a
 * usable charge names nothing to record.
 */
async function recordChargeSetAside(deps: InvoicingDeps, envelope: EventEnvelope, error: unknown): Promise<void> {
  let chargeId: string | undefined;
  try {
    chargeId = subscriptionEventsV1.ChargeCreated.decode(envelope.payload).charge?.uuid;
  } catch {
    return;
  }
  if (!chargeId || !isUuid(chargeId) || !isUuid(envelope.organization_id)) return;
  const reason = error instanceof Error ? error.message : String(error);
  await inTransaction(deps.orm, (em) =>
    recordRejectedCharge(
      em,
      { chargeId, organizationId: envelope.organization_id, eventId: envelope.event_id, reason },
      deps.clock.now(),
    ),
  );
}
