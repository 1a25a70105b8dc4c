import type { accountsV1 } from '@billing/proto';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, field, filterField, type Route } from '../../http/index.js';
import { presentRecipient } from '../accounts/account-representation.js';
import { RecipientSchema } from '../shared/object-schemas.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';

const recipientFields = {
  account: field.uuid(),
  name: field.string({ max: 256 }),
  email: field.email(),
  receive_invoice: field.boolean(),
  receive_payment_confirmation: field.boolean(),
  receive_payment_card_notifications: field.boolean(),
  receive_subscription_notifications: field.boolean(),
};

const RecipientBody = z.object(recipientFields).partial().required({ account: true, name: true, email: true });
const RecipientPatchBody = z.object(recipientFields).partial();
const TAGS = ['recipients'];

function recipientInput(body: z.output<typeof RecipientPatchBody>) {
  return { recipient: body as accountsV1.RecipientInput, present_fields: Object.keys(body) };
}

/** gaps.md §4: full CRUD on /api/v1/recipients/. */
export function recipientRoutes({ accounts }: ServiceClients): Route[] {
  const list = defineListRoute({
    path: '/api/v1/recipients/',
    operationId: 'listRecipients',
    summary: 'List recipients',
    tags: TAGS,
    item: RecipientSchema,
    query: z.object({ account: filterField.uuid() }),
    ordering: ['name', 'email', 'created_date'],
    handler: async ({ query, page }) => {
      const reply = await accounts.call('listRecipients', {
        page: pageOf(page),
        account: query.account,
      });
      return { count: reply.count, results: reply.recipients.map(presentRecipient) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: '/api/v1/recipients/',
    operationId: 'createRecipient',
    summary: 'Create a recipient; the account then receives e-mails',
    tags: TAGS,
    body: RecipientBody,
    response: { status: 201, schema: RecipientSchema },
    handler: async ({ body }) =>
      presentRecipient((await accounts.call('createRecipient', recipientInput(body))).recipient!),
  });

  const get = defineRoute({
    method: 'get',
    path: '/api/v1/recipients/{uuid}/',
    operationId: 'getRecipient',
    summary: 'One recipient',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: RecipientSchema },
    handler: async ({ params }) =>
      presentRecipient((await accounts.call('getRecipient', { uuid: params.uuid })).recipient!),
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: '/api/v1/recipients/{uuid}/',
      operationId: method === 'put' ? 'replaceRecipient' : 'updateRecipient',
      summary:
        method === 'put' ? 'Update a recipient (required fields as on create)' : 'Update some fields of a recipient',
      tags: TAGS,
      params: UuidParams,
      body: method === 'put' ? RecipientBody : RecipientPatchBody,
      response: { status: 200, schema: RecipientSchema },
      handler: async ({ params, body }) => {
        const reply = await accounts.call('updateRecipient', {
          uuid: params.uuid,
          replace: method === 'put',
          ...recipientInput(body),
        });
        return presentRecipient(reply.recipient!);
      },
    });

  const remove = defineRoute({
    method: 'delete',
    path: '/api/v1/recipients/{uuid}/',
    operationId: 'deleteRecipient',
    summary: 'Delete a recipient',
    tags: TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await accounts.call('deleteRecipient', { uuid: params.uuid });
      return undefined;
    },
  });

  return [list, create, get, update('put'), update('patch'), remove];
}
