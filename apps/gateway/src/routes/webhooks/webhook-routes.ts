import type { webhooksV1 } from '@billing/proto';
import type { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';
import { presentDelivery, presentWebhook } from './webhook-representation.js';
import {
  CreatedWebhookSchema,
  DeliveryParams,
  WebhookBody,
  WebhookDeliverySchema,
  WebhookPatchBody,
  WebhookSchema,
} from './webhook-schemas.js';

const WEBHOOKS = '/api/v1/webhooks/';
const WEBHOOK = `${WEBHOOKS}{uuid}/`;
const DELIVERIES = `${WEBHOOK}deliveries/`;
const RESEND = `${DELIVERIES}{delivery}/resend/`;
const TAGS = ['webhooks'];

function webhookInput(body: z.output<typeof WebhookPatchBody>) {
  return {
    webhook: { ...body, events: body.events ?? [] } as webhooksV1.WebhookInput,
    present_fields: Object.keys(body),
  };
}

/** The organization's outbound webhooks (gaps.md §12), served by the accounts service. */
export function webhookRoutes({ webhooks }: ServiceClients): Route[] {
  const list = defineListRoute({
    path: WEBHOOKS,
    operationId: 'listWebhooks',
    summary: "The organization's webhooks",
    tags: TAGS,
    item: WebhookSchema,
    ordering: ['created_date', 'endpoint'],
    handler: async ({ page }) => {
      const reply = await webhooks.call('listWebhooks', { page: pageOf(page) });
      return { count: reply.count, results: reply.webhooks.map(presentWebhook) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: WEBHOOKS,
    operationId: 'createWebhook',
    summary: 'Register a webhook; the answer carries its signing secret, shown only this once',
    tags: TAGS,
    body: WebhookBody,
    response: { status: 201, schema: CreatedWebhookSchema },
    handler: async ({ body }) => {
      const reply = await webhooks.call('createWebhook', webhookInput(body));
      return { ...presentWebhook(reply.webhook!), secret: reply.secret };
    },
  });

  const get = defineRoute({
    method: 'get',
    path: WEBHOOK,
    operationId: 'getWebhook',
    summary: 'One webhook',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: WebhookSchema },
    handler: async ({ params }) => presentWebhook((await webhooks.call('getWebhook', { uuid: params.uuid })).webhook!),
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: WEBHOOK,
      operationId: method === 'put' ? 'replaceWebhook' : 'updateWebhook',
      summary: method === 'put' ? 'Update a webhook (endpoint required)' : 'Update some fields of a webhook',
      tags: TAGS,
      params: UuidParams,
      body: method === 'put' ? WebhookBody : WebhookPatchBody,
      response: { status: 200, schema: WebhookSchema },
      handler: async ({ params, body }) => {
        const reply = await webhooks.call('updateWebhook', {
          uuid: params.uuid,
          replace: method === 'put',
          ...webhookInput(body),
        });
        return presentWebhook(reply.webhook!);
      },
    });

  const remove = defineRoute({
    method: 'delete',
    path: WEBHOOK,
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook with its delivery log',
    tags: TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await webhooks.call('deleteWebhook', { uuid: params.uuid });
      return undefined;
    },
  });

  const deliveries = defineListRoute({
    path: DELIVERIES,
    operationId: 'listWebhookDeliveries',
    summary: "The webhook's deliveries, newest first, each with its attempts",
    tags: TAGS,
    params: UuidParams,
    item: WebhookDeliverySchema,
    handler: async ({ params, page }) => {
      const reply = await webhooks.call('listWebhookDeliveries', { webhook: params.uuid, page: pageOf(page) });
      return { count: reply.count, results: reply.deliveries.map(presentDelivery) };
    },
  });

  const resend = defineRoute({
    method: 'post',
    path: RESEND,
    operationId: 'resendWebhookDelivery',
    summary: 'Deliver again now (same body and webhook-id); a failed delivery gets a new retry schedule',
    tags: TAGS,
    params: DeliveryParams,
    response: { status: 200, schema: WebhookDeliverySchema },
    handler: async ({ params }) =>
      presentDelivery(
        (await webhooks.call('resendWebhookDelivery', { webhook: params.uuid, delivery: params.delivery })).delivery!,
      ),
  });

  return [list, create, get, update('put'), update('patch'), remove, deliveries, resend];
}
