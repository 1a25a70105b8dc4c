import { PAYMENT_GATEWAYS } from '@billing/reference-data';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineRoute, field, type Route } from '../../http/index.js';
import { PaymentGatewayAccountSchema } from '../shared/object-schemas.js';
import { presentPaymentGatewayAccount } from './account-representation.js';

const PaymentGatewayAccountsBody = z.array(
  z.object({
    payment_gateway: field.choice(PAYMENT_GATEWAYS),
    payment_gateway_account_id: field.string({ max: 256 }),
  }),
);

const params = z.object({ code: z.string().min(1).max(128) });
const path = '/api/v1/accounts/{code}/payment-gateways/';
const aliases = ['/api/v1/accounts/{code}/payment_gateways/'];

/** gaps.md §3: GET lists the account's gateway accounts; POST replaces them with the posted list. */
export function paymentGatewayRoutes({ accounts }: ServiceClients): Route[] {
  return [
    defineRoute({
      method: 'get',
      path,
      aliases,
      operationId: 'listPaymentGatewayAccounts',
      summary: "The account's payment gateway accounts",
      tags: ['accounts'],
      params,
      response: { status: 200, schema: z.array(PaymentGatewayAccountSchema) },
      handler: async ({ params }) => {
        const reply = await accounts.call('listPaymentGatewayAccounts', { account_code: params.code });
        return reply.payment_gateway_accounts.map(presentPaymentGatewayAccount);
      },
    }),
    defineRoute({
      method: 'post',
      path,
      aliases,
      operationId: 'setPaymentGatewayAccounts',
      summary: "Replace the account's payment gateway accounts",
      tags: ['accounts'],
      params,
      body: PaymentGatewayAccountsBody,
      response: { status: 200, schema: z.array(PaymentGatewayAccountSchema) },
      handler: async ({ params, body }) => {
        const reply = await accounts.call('setPaymentGatewayAccounts', {
          account_code: params.code,
          payment_gateway_accounts: body,
        });
        return reply.payment_gateway_accounts.map(presentPaymentGatewayAccount);
      },
    }),
  ];
}
