import { PAYMENT_GATEWAYS } from '@billing/reference-data';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, field, filterField, type Route } from '../../http/index.js';
import { UuidParams } from '../shared/path-params.js';
import { PaymentCardSchema, presentPaymentCard } from './payment-card-representation.js';

const PaymentCardBody = z.object({
  account: field.uuid(),
  token: field.string({ max: 256 }),
  gateway: field.choice(PAYMENT_GATEWAYS),
});

const TAGS = ['payment cards'];

/**
 * gaps.md §11: cards registered by the gateway's token. POST asks the gateway for the card
 * (noop needs no credentials; the others the organization's); disable changes only our record.
 */
export function paymentCardRoutes({ payments }: ServiceClients): Route[] {
  const list = defineListRoute({
    path: '/api/v1/paymentcards/',
    operationId: 'listPaymentCards',
    summary: 'List payment cards (newest first)',
    tags: TAGS,
    item: PaymentCardSchema,
    query: z.object({ account: filterField.uuid(), active: filterField.boolean() }),
    ordering: ['created_date'],
    handler: async ({ query, page }) => {
      const reply = await payments.call('listPaymentCards', {
        offset: (page.page - 1) * page.pageSize,
        limit: page.pageSize,
        account: query.account,
        active: query.active,
        ordering: page.ordering[0] ?? '-created_date',
      });
      return { count: reply.count, results: reply.cards.map(presentPaymentCard) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: '/api/v1/paymentcards/',
    operationId: 'createPaymentCard',
    summary: "Register a card by the gateway's token",
    description:
      "The gateway is asked for the card (brand, last four digits, expiry, holder name); card numbers never reach this API. 400 on `gateway` when the organization has no credentials for it (noop needs none) or it is not available in this installation; 400 on `token` when the gateway does not know it. The noop gateway's tokens: noop_visa, noop_mastercard (charges succeed), noop_declined (charges are declined).",
    tags: TAGS,
    body: PaymentCardBody,
    response: { status: 201, schema: PaymentCardSchema },
    handler: async ({ body }) => presentPaymentCard((await payments.call('createPaymentCard', body)).card!),
  });

  const get = defineRoute({
    method: 'get',
    path: '/api/v1/paymentcards/{uuid}/',
    operationId: 'getPaymentCard',
    summary: 'One payment card',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: PaymentCardSchema },
    handler: async ({ params }) =>
      presentPaymentCard((await payments.call('getPaymentCard', { uuid: params.uuid })).card!),
  });

  const disable = defineRoute({
    method: 'post',
    path: '/api/v1/paymentcards/{uuid}/disable/',
    operationId: 'disablePaymentCard',
    summary: 'Disable a card in this service only (the gateway keeps it)',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: PaymentCardSchema },
    handler: async ({ params }) =>
      presentPaymentCard((await payments.call('disablePaymentCard', { uuid: params.uuid })).card!),
  });

  return [list, create, get, disable];
}
