import { afterCommit } from '@billing/db';
import {
  type EventBus,
  type EventEnvelope,
  type EventsLogger,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
  subjectFor,
} from '@billing/events';
import { invoiceEventsV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cardInvoiceOf } from '../grpc/invoicing-client.js';
import type { Charger } from '../use-cases/charging/charger.js';
import { systemContext } from '../use-cases/charging/run-attempt.js';
import { takeInCardInvoice } from '../use-cases/charging/take-in-invoice.js';
import type { PaymentsDeps } from '../use-cases/deps.js';

/** Durable consumer name per schema: `payments-invoices-issued` in production, one per test schema. */
export const invoiceIssuedConsumerName = (schema: string): string => `${schema}-invoices-issued`;

/**
 * One invoicing.invoice.issued in the consumer's transaction (with its inbox row): a card invoice
 * is taken in, its first attempt due at once, and run right after the commit.
 */
export async function takeInIssuedInvoice(
  deps: PaymentsDeps,
  charger: Charger,
  em: EntityManager,
  envelope: EventEnvelope,
): Promise<void> {
  const { invoice } = invoiceEventsV1.InvoiceChanged.decode(envelope.payload);
  if (!invoice) throw new Error(`invoice.issued ${envelope.event_id} has no invoice`);
  const cardInvoice = cardInvoiceOf(invoice);
  if (cardInvoice.collectionMethod !== 'payment_card') return;
  const organization = await deps.directory.organization(systemContext(envelope.organization_id));
  const now = organization.testClockTime ?? deps.clock.now();
  const origin = { organizationId: envelope.organization_id, now, testClock: organization.testClockTime !== null };
  // A test clock may have moved on before this event arrived: the first attempt is still made at
  // the moment the invoice was issued, as the advance would make it, so the dunning schedule
  // counts from there.
  const attemptAt = origin.testClock && cardInvoice.issuedAt && cardInvoice.issuedAt < now ? cardInvoice.issuedAt : now;
  if (await takeInCardInvoice(em, cardInvoice, origin)) {
    void afterCommit(em, async () => {
      await charger.runInvoice(cardInvoice.invoiceId, attemptAt).catch((error: unknown) => {
        deps.logger.error(
          { err: error, invoice: cardInvoice.invoiceId },
          'charging a card invoice failed; the worker retries',
        );
      });
    });
  }
}

export function startInvoiceIssuedConsumer(
  deps: PaymentsDeps,
  charger: Charger,
  options: { bus: EventBus; logger: EventsLogger; consumer: string },
): Promise<RunningConsumer> {
  return startConsumer({
    orm: deps.orm,
    bus: options.bus,
    logger: options.logger,
    clock: deps.clock,
    consumer: options.consumer,
    stream: streamNameFor('invoicing'),
    filterSubject: subjectFor('invoicing', 'invoice.issued'),
    handle: (em, envelope) => takeInIssuedInvoice(deps, charger, em, envelope),
  });
}
