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
import { invoiceEventsV1, peekMessage, peekStrings } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CardInvoice } from '../domain/directory.js';
import { cardInvoiceOf } from '../grpc/invoicing-client.js';
import type { Charger } from '../use-cases/charging/charger.js';
import { organizationLookup } from '../use-cases/charging/run-attempt.js';
import { type TakeInOrigin, takeInCardInvoices } from '../use-cases/charging/take-in-invoice.js';
import type { PaymentsDeps } from '../use-cases/deps.js';

/** Durable consumer name per schema: `payments-invoices-issued` in production, one per test schema. */
export const invoiceIssuedConsumerName = (schema: string): string => `${schema}-invoices-issued`;

/**
 * invoicing.invoice.issued events in the consumer's transaction (with their inbox rows): each card
 * invoice is taken in, its first attempt due at once, and the batch's are run together right after
 * the commit. The organization (its test clock) is asked once per organization of the batch.
 */
export async function takeInIssuedInvoices(
  deps: PaymentsDeps,
  charger: Charger,
  em: EntityManager,
  envelopes: readonly EventEnvelope[],
): Promise<void> {
  // Asked once per organization of the batch; the charging after the commit uses the same answers.
  const organizationOf = organizationLookup(deps);
  const candidates: Array<{ invoice: CardInvoice; origin: TakeInOrigin; attemptAt: Date }> = [];
  for (const envelope of envelopes) {
    const { invoice } = invoiceEventsV1.InvoiceChanged.decode(envelope.payload);
    if (!invoice) throw new Error(`invoice.issued ${envelope.event_id} has no invoice`);
    const cardInvoice = cardInvoiceOf(invoice);
    if (cardInvoice.collectionMethod !== 'payment_card') continue;
    const organization = await organizationOf(envelope.organization_id);
    const now = organization.testClockTime ?? deps.clock.now();
    const origin = { organizationId: envelope.organization_id, now, testClock: organization.testClockTime !== null };
    // A test clock may have moved on before this event arrived: the first attempt is still made at
    // the moment the invoice was issued, as the advance would make it, so the dunning schedule
    // counts from there.
    const attemptAt =
      origin.testClock && cardInvoice.issuedAt && cardInvoice.issuedAt < now ? cardInvoice.issuedAt : now;
    candidates.push({ invoice: cardInvoice, origin, attemptAt });
  }
  // The batch's card invoices in one statement; run those it took in, in the events' order.
  const takenIn = await takeInCardInvoices(em, candidates);
  const toRun = candidates
    .filter(({ invoice }) => takenIn.delete(invoice.invoiceId))
    .map(({ invoice, attemptAt }) => ({ invoiceId: invoice.invoiceId, now: attemptAt }));
  if (toRun.length === 0) return;
  void afterCommit(em, async () => {
    await charger.runInvoices(toRun, organizationOf).catch((error: unknown) => {
      deps.logger.error(
        { err: error, invoices: toRun.map((job) => job.invoiceId) },
        'charging card invoices failed; the worker retries',
      );
    });
  });
}

/**
 * An invoice.issued whose invoice is not collected by card: payments takes nothing of it in, so the
 * consumer acknowledges it without a transaction or an inbox row (decided from the event alone, as
 * startConsumer's `ignore` requires). Most invoices of a billing run are such (70 % in
 * bench:billing-run): each cost an inbox row and a share of a transaction. An event without an
 * invoice is not ignored: the handler names it as poison.
 */
export function notCollectedByCard(envelope: EventEnvelope): boolean {
  // InvoiceChanged.invoice (1), Invoice.collection_method (12): two fields read, the rest of the
  // invoice (its lines, parties, texts) stepped over, as cardInvoiceOf would read it when decoded.
  const invoice = peekMessage(envelope.payload, 1);
  if (invoice === undefined) return false;
  const [collectionMethod = ''] = peekStrings(invoice, [12]);
  return collectionMethod !== 'payment_card';
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
    handle: (em, envelope) => takeInIssuedInvoices(deps, charger, em, [envelope]),
    // The events that arrived together in one transaction, their card invoices charged together.
    batch: true,
    handleBatch: (em, envelopes) => takeInIssuedInvoices(deps, charger, em, envelopes),
    ignore: notCollectedByCard,
    // Most invoices are not collected by card (70 % in bench:billing-run): a pull of 1,000 makes
    // batches of about 300 card invoices, charged together right after their commit.
    fetchSize: 1_000,
  });
}
