import type { Clock } from '@billing/clock';
import { type EventsLogger, type RunningConsumer, subjectFor } from '@billing/events';
import { encodeMessage, paymentEventsV1, paymentsV1 } from '@billing/proto';
import { recordPaymentCardState } from '../db/account-payment-card-store.js';
import { InvalidPaymentCardEvent, paymentCardStateOf } from '../domain/payment-card-state.js';
import { type ReadModelConsumerOptions, startReadModelConsumer } from './read-model-consumer.js';
import {
  type ApplyReadModelEvent,
  loggedReadModelHandler,
  oneByOne,
  payloadOfType,
  type ReadModelHandler,
} from './read-model-handler.js';

const PAYMENTS_PRODUCER = 'payments';
export const PAYMENT_CARD_CHANGED_PAYLOAD = 'billing.events.v1.PaymentCardChanged';

/** `${schema}-payment-card-changes`: shared by the replicas of a schema, one per test schema. */
export function paymentCardChangesConsumerName(schema: string): string {
  return `${schema}-payment-card-changes`;
}

/** Keeps account_payment_card and has_active_payment_card up to date from `payments.payment_card.*`. */
export function startPaymentCardChangesConsumer(options: ReadModelConsumerOptions): Promise<RunningConsumer> {
  return startReadModelConsumer(options, {
    defaultProducer: PAYMENTS_PRODUCER,
    filterSubject: (producer) => `${subjectFor(producer, 'payment_card')}.*`,
    handle: paymentCardChangedHandler(options),
    handleBatch: oneByOne(paymentCardChangedHandler(options)),
  });
}

export function paymentCardChangedHandler(options: { clock: Clock; logger: EventsLogger }): ReadModelHandler {
  return loggedReadModelHandler(options, applyPaymentCardChanged, {
    fields: (envelope) => ({
      event_id: envelope.event_id,
      event_type: envelope.event_type,
      card: envelope.aggregate_id,
    }),
    otherOrganization: 'payment card event names a card or account of another organization; ignored',
    applied: 'payment card event applied',
  });
}

const applyPaymentCardChanged: ApplyReadModelEvent = async (em, envelope, now) => {
  const bytes = payloadOfType(envelope, PAYMENT_CARD_CHANGED_PAYLOAD, InvalidPaymentCardEvent);
  const { card } = paymentEventsV1.PaymentCardChanged.decode(bytes);
  const state = paymentCardStateOf(envelope.organization_id, card);
  return recordPaymentCardState(em, state, encodeMessage(paymentsV1.PaymentCard, card!), now);
};
