import { PAYMENT_GATEWAYS } from '@billing/reference-data';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { absoluteRequestUrl, defineRoute, notFound, type Route } from '../../http/index.js';
import { findAccountByCode } from '../shared/account-lookup.js';

const params = z.object({ code: z.string().min(1).max(128), gateway: z.enum(PAYMENT_GATEWAYS) });

const query = z.object({
  currency: z
    .string()
    .optional()
    .meta({ description: 'DKK, NOK, SEK, EUR or USD; required for cardgw_b and cardgw_c_easy.' }),
  redirect_url: z
    .string()
    .optional()
    .meta({ description: 'Where the customer returns to; required for every gateway but cardgw_c_easy.' }),
});

/**
 * api-spec card-registration-link (both path forms, gaps.md §2): the gateway's card-entry page for
 * the account (noop: a page of ours); the card is registered by the gateway's callback.
 */
export function cardRegistrationRoutes(clients: ServiceClients): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/accounts/{code}/card-registration-link/{gateway}/',
      aliases: ['/api/v1/accounts/{code}/card_registration_link/{gateway}/'],
      operationId: 'getCardRegistrationLink',
      summary: 'A URL where the customer enters a card at the gateway; it is registered automatically',
      tags: ['payment cards'],
      params,
      query,
      response: { status: 200, schema: z.object({ url: z.string() }) },
      handler: async ({ params, query, req }) => {
        const account = await findAccountByCode(clients, params.code);
        if (!account) throw notFound();
        const { url } = await clients.payments.call('createCardRegistrationLink', {
          account: account.uuid,
          gateway: params.gateway,
          currency: query.currency,
          redirect_url: query.redirect_url,
          public_base_url: absoluteRequestUrl(req).origin,
        });
        return { url };
      },
    }),
  ];
}
