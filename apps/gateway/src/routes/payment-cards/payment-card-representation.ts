import { z } from 'zod';

// In @billing/rest-representation: an account's paymentcard_set shows cards as this route does.
export { presentPaymentCard } from '@billing/rest-representation';

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
