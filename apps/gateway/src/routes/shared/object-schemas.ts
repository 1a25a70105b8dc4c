import { z } from 'zod';

export const RecipientSchema = z
  .object({
    uuid: z.uuid(),
    account: z.uuid(),
    account_code: z.string(),
    name: z.string(),
    email: z.string(),
    receive_invoice: z.boolean(),
    receive_payment_confirmation: z.boolean(),
    receive_payment_card_notifications: z.boolean(),
    receive_subscription_notifications: z.boolean(),
    has_access_to_self_service: z.boolean(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'Recipient' });

export const PaymentGatewayAccountSchema = z
  .object({
    uuid: z.uuid(),
    payment_gateway: z.string(),
    payment_gateway_account_id: z.string(),
    model: z.string(),
    schema: z.string(),
  })
  .meta({ id: 'PaymentGatewayAccount' });
