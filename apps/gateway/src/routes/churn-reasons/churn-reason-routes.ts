import type { accountsV1 } from '@billing/proto';
import { presentChurnReason } from '@billing/rest-representation';
import { z } from 'zod';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, filterField, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';
import { ChurnReasonBody, ChurnReasonPatchBody, ChurnReasonSchema } from './churn-reason-schemas.js';

const REASONS = '/api/v1/churn-reasons/';
const REASON = `${REASONS}{uuid}/`;
// Multi-word paths answer in both forms (docs/api.md).
const REASONS_TWIN = '/api/v1/churn_reasons/';
const REASON_TWIN = `${REASONS_TWIN}{uuid}/`;
const TAGS = ['churn reasons'];

export { presentChurnReason };

function churnReasonInput(body: z.output<typeof ChurnReasonPatchBody>) {
  return { churn_reason: body as accountsV1.ChurnReasonInput, present_fields: Object.keys(body) };
}

/** The organization's churn reasons (its settings): full CRUD, served by the accounts service. */
export function churnReasonRoutes({ churnReasons }: ServiceClients): Route[] {
  const list = defineListRoute({
    path: REASONS,
    aliases: [REASONS_TWIN],
    operationId: 'listChurnReasons',
    summary: "The organization's churn reasons",
    tags: TAGS,
    item: ChurnReasonSchema,
    query: z.object({ is_active: filterField.boolean() }),
    ordering: ['name', 'created_date'],
    handler: async ({ query, page }) => {
      const reply = await churnReasons.call('listChurnReasons', {
        page: pageOf(page),
        is_active: query.is_active,
      });
      return { count: reply.count, results: reply.churn_reasons.map(presentChurnReason) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: REASONS,
    aliases: [REASONS_TWIN],
    operationId: 'createChurnReason',
    summary: 'Create a churn reason',
    tags: TAGS,
    body: ChurnReasonBody,
    response: { status: 201, schema: ChurnReasonSchema },
    handler: async ({ body }) =>
      presentChurnReason((await churnReasons.call('createChurnReason', churnReasonInput(body))).churn_reason!),
  });

  const get = defineRoute({
    method: 'get',
    path: REASON,
    aliases: [REASON_TWIN],
    operationId: 'getChurnReason',
    summary: 'One churn reason',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: ChurnReasonSchema },
    handler: async ({ params }) =>
      presentChurnReason((await churnReasons.call('getChurnReason', { uuid: params.uuid })).churn_reason!),
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: REASON,
      aliases: [REASON_TWIN],
      operationId: method === 'put' ? 'replaceChurnReason' : 'updateChurnReason',
      summary: method === 'put' ? 'Update a churn reason (name required)' : 'Update some fields of a churn reason',
      tags: TAGS,
      params: UuidParams,
      body: method === 'put' ? ChurnReasonBody : ChurnReasonPatchBody,
      response: { status: 200, schema: ChurnReasonSchema },
      handler: async ({ params, body }) => {
        const reply = await churnReasons.call('updateChurnReason', {
          uuid: params.uuid,
          replace: method === 'put',
          ...churnReasonInput(body),
        });
        return presentChurnReason(reply.churn_reason!);
      },
    });

  const remove = defineRoute({
    method: 'delete',
    path: REASON,
    aliases: [REASON_TWIN],
    operationId: 'deleteChurnReason',
    summary: 'Delete a churn reason (subscriptions naming it keep showing it)',
    tags: TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await churnReasons.call('deleteChurnReason', { uuid: params.uuid });
      return undefined;
    },
  });

  return [list, create, get, update('put'), update('patch'), remove];
}
