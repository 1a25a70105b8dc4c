import type { paymentsV1 } from '@billing/proto';
import { tagged } from './representation.js';

/** api-spec "Payment card" (also the items of an account's `paymentcard_set`). */
export function presentPaymentCard(card: paymentsV1.PaymentCard) {
  return tagged('paymentcard', {
    uuid: card.uuid,
    active: card.active,
    brand: card.brand,
    card_number: card.card_number,
    month: card.month,
    year: card.year,
    name: card.name,
    payment_gateway: card.payment_gateway,
    payment_gateway_id: card.payment_gateway_id,
    account: card.account,
  });
}
