import type { IncomingHttpHeaders } from 'node:http';
import type { accountsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, fieldsHeaderKeeps, instantRange, type Route } from '../../http/index.js';
import { pageOf } from '../shared/page-of.js';
import { CodeParams } from '../shared/path-params.js';
import { presentAccountsWithSubscriptions } from '../subscriptions/account-subscription-sets.js';
import { presentDraftLineSet } from './account-draft-line-sets.js';
import { accountInput } from './account-input.js';
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
  const withSubscriptionSets = presentAccountsWithSubscriptions(clients);
  // Account reads carry their subscription_set and draftinvoiceline_set: the accounts service sends
  // both with each account, and what the subscriptions embed with the reply: a read is one call.
  const withSets = async (
    found: readonly accountsV1.Account[],
    embeds: accountsV1.SubscriptionSetEmbeds | undefined,
    headers: IncomingHttpHeaders,
  ) => {
    const presented = await withSubscriptionSets(found, embeds, headers);
    if (!fieldsHeaderKeeps(headers, 'draftinvoiceline_set')) return presented;
    return presented.map((account, index) => ({
      ...account,
      draftinvoiceline_set: presentDraftLineSet(found[index]!),
    }));
  };

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
      const created = instantRange(query, 'created_date');
      const modified = instantRange(query, 'last_modified_date');
      const reply = await accounts.call('listAccounts', {
        page: pageOf(page),
        filter: {
          uuid: query.uuid,
          code: query.code,
          type: query.type,
          is_getting_reminders: query.is_getting_reminders,
          is_archived: query.is_archived,
          override_business_entity: query.override_business_entity,
          search: query.search,
          legal_country: query.legal_country,
          ean_invoicing: query.ean_invoicing,
          has_recipient_receiving_invoices: query.has_recipient_receiving_invoices,
          register_status: query.register_status,
          created_date_lte: created.lte,
          created_date_gte: created.gte,
          last_modified_date_lte: modified.lte,
          last_modified_date_gte: modified.gte,
          subscription_status: query.subscription_status,
          subscription_collection_method: query.subscription_collection_method,
          subscription_set_to_expire: query.subscription_set_to_expire,
          balance: query.balance === undefined ? undefined : String(query.balance),
          active_payment_method: query.active_payment_method,
          reseller_program: query.reseller_program,
          registered_for_direct_debit: query.registered_for_direct_debit,
        },
      });
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
