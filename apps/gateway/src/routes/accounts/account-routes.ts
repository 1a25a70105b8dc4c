import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { CodeParams } from '../shared/path-params.js';
import { accountInput } from './account-input.js';
import { accountListFilter, presentAccountsWithSets } from './account-list.js';
import { presentAccount } from './account-representation.js';
import {
  ACCOUNT_ORDERING_FIELDS,
  AccountBody,
  AccountFilters,
  AccountPatchBody,
  AccountSchema,
} from './account-schemas.js';
import { deleteAccount } from './delete-account.js';

const TAGS = ['accounts'];

export function accountRoutes(clients: ServiceClients): Route[] {
  const { accounts } = clients;
  const withSets = presentAccountsWithSets(clients);

  const list = defineListRoute({
    path: '/api/v1/accounts/',
    operationId: 'listAccounts',
    summary: 'List accounts',
    description:
      'Filters owned by other services (subscription_status, subscription_collection_method, subscription_set_to_expire, balance, active_payment_method, registered_for_direct_debit) are served from a read model fed by their events.',
    tags: TAGS,
    item: AccountSchema,
    query: AccountFilters,
    ordering: ACCOUNT_ORDERING_FIELDS,
    fieldsHeader: true,
    handler: async ({ query, page, headers }) => {
      const reply = await accounts.call('listAccounts', { page: pageOf(page), filter: accountListFilter(query) });
      return { count: reply.count, results: await withSets(reply.accounts, reply.embeds, headers) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: '/api/v1/accounts/',
    operationId: 'createAccount',
    summary: 'Create an account',
    tags: TAGS,
    body: AccountBody,
    response: { status: 201, schema: AccountSchema },
    handler: async ({ body }) => presentAccount((await accounts.call('createAccount', accountInput(body))).account!),
  });

  const get = defineRoute({
    method: 'get',
    path: '/api/v1/accounts/{code}/',
    operationId: 'getAccount',
    summary: 'One account',
    tags: TAGS,
    params: CodeParams,
    fieldsHeader: true,
    response: { status: 200, schema: AccountSchema },
    handler: async ({ params, headers }) => {
      const { account, embeds } = await accounts.call('getAccount', { code: params.code });
      return (await withSets([account!], embeds, headers))[0]!;
    },
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: '/api/v1/accounts/{code}/',
      operationId: method === 'put' ? 'replaceAccount' : 'updateAccount',
      summary:
        method === 'put' ? 'Update an account (required fields as on create)' : 'Update some fields of an account',
      tags: TAGS,
      params: CodeParams,
      body: method === 'put' ? AccountBody : AccountPatchBody,
      response: { status: 200, schema: AccountSchema },
      handler: async ({ params, body, headers }) => {
        const reply = await accounts.call('updateAccount', {
          code: params.code,
          replace: method === 'put',
          ...accountInput(body),
        });
        return (await withSets([reply.account!], reply.embeds, headers))[0]!;
      },
    });

  const remove = defineRoute({
    method: 'delete',
    path: '/api/v1/accounts/{code}/',
    operationId: 'deleteAccount',
    summary: 'Delete an account without invoices or non-expired subscriptions',
    tags: TAGS,
    params: CodeParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await deleteAccount(clients, params.code);
      return undefined;
    },
  });

  return [list, create, get, update('put'), update('patch'), remove];
}
