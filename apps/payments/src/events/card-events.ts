import { encodeMessage, paymentEventsV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { PaymentCardView } from '../domain/payment-card.js';
import { paymentCardMessage } from '../grpc/card-mapper.js';

/**
 * payment_card.activated and .deactivated change a card; payment_card.expires_this_month tells
 * that a card's expiry month began (webhook card_expires_this_month) and carries the card as it is.
 */
export type PaymentCardEventType =
  | 'payment_card.activated'
  | 'payment_card.deactivated'
  | 'payment_card.expires_this_month';

/** The card changes (stream PAYMENTS, payments.payment_card.*): the accounts read model is made of them. */
export const PAYMENT_CARD_EVENT_TYPES: readonly PaymentCardEventType[] = [
  'payment_card.activated',
  'payment_card.deactivated',
];

/** Appends a card event carrying the card's state after the change. */
export function publishPaymentCardEvent(
  scope: ChangeScope,
  eventType: PaymentCardEventType,
  card: PaymentCardView,
): void {
  scope.publish({
    eventType,
    aggregateType: 'payment_card',
    aggregateId: card.uuid,
    payloadType: 'billing.events.v1.PaymentCardChanged',
    payload: encodeMessage(paymentEventsV1.PaymentCardChanged, { card: paymentCardMessage(card) }),
  });
}
