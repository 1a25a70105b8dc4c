import type { paymentsV1 } from '@billing/proto';
import { z } from 'zod';
import { tagged } from '../shared/representation.js';

/** api-spec "Payment card". */
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

export const PaymentCardSchema = z
  .object({
    uuid: z.uuid(),
    active: z.boolean(),
    brand: z.string(),
    card_number: z.string().meta({ description: 'Masked: only the last four digits visible.' }),
    month: z.number().int().meta({ description: 'Expiry month.' }),
    year: z.number().int().meta({ description: 'Expiry year.' }),
    name: z.string(),
    payment_gateway: z.string(),
    payment_gateway_id: z.string().meta({ description: "The gateway's identifier of the card." }),
    account: z.uuid(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'PaymentCard' });
