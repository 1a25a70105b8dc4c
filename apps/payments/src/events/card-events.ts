import { paymentEventsV1 } from '@billing/proto';
import type { ChangeScope } from '@billing/runtime';
import type { PaymentCardView } from '../domain/payment-card.js';
import { paymentCardMessage } from '../grpc/card-mapper.js';

export type PaymentCardEventType = 'payment_card.activated' | 'payment_card.deactivated';

/** Subjects payments.payment_card.* (stream PAYMENTS): read by the accounts read model and webhooks. */
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
    payload: paymentEventsV1.PaymentCardChanged.encode({ card: paymentCardMessage(card) }).finish(),
  });
}
