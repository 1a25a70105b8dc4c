import type { RequestContext } from '@billing/observability';
import type { subscriptionsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, notFound, type Route } from '../../http/index.js';
import { findAccountByCode } from '../shared/account-lookup.js';
import { pageOf } from '../shared/page-of.js';
import { CodeParams, UuidParams } from '../shared/path-params.js';
import { type KnownEmbeds, presentSubscriptions } from './subscription-embeds.js';
import { createInput, resolveWriteReferences, updateInput, type WriteReferences } from './subscription-input.js';
import { organizationTimeZoneOf, resolveSubscriptionFilter } from './subscription-list-filter.js';
import {
  CancelBody,
  SUBSCRIPTION_ORDERING,
  SubscribeBody,
  SubscriptionCreateBody,
  SubscriptionFilters,
  SubscriptionSchema,
  SubscriptionUpdateBody,
} from './subscription-schemas.js';

const SUBSCRIPTIONS = '/api/v1/subscriptions/';
const SUBSCRIPTION = `${SUBSCRIPTIONS}{uuid}/`;
const TAGS = ['subscriptions'];

/**
 * api-spec "Subscriptions" and gaps.md §6. The subscriptions service owns subscriptions and names
 * accounts by uuid; the gateway resolves account codes, checks churn reasons and embeds the account,
 * plan, terms and churn reason (docs/api.md "Subscriptions").
 */
export function subscriptionRoutes(clients: ServiceClients): Route[] {
  const { subscriptions } = clients;
  const present = async (subscription: subscriptionsV1.Subscription | undefined, known: KnownEmbeds = {}) =>
    (await presentSubscriptions(clients, [subscription!], known))[0]!;
  const organizationTimeZone = (context: RequestContext) => organizationTimeZoneOf(clients, context);

  const list = defineListRoute({
    path: SUBSCRIPTIONS,
    operationId: 'listSubscriptions',
    summary: 'List subscriptions',
    description:
      'Oldest first by default. account is an account code (unknown: empty list). Date bounds: __lte/__gte take a date (a whole UTC day) or a date-time; __org_tz_lte/__org_tz_gte take a date on the organization’s wall clock.',
    tags: TAGS,
    item: SubscriptionSchema,
    query: SubscriptionFilters,
    ordering: SUBSCRIPTION_ORDERING,
    handler: async ({ query, page, context }) => {
      const filter = await resolveSubscriptionFilter(clients, query, organizationTimeZone(context));
      if (filter === null) return { count: 0, results: [] };
      const reply = await subscriptions.call('listSubscriptions', {
        page: pageOf(page),
        filter,
      });
      return { count: reply.count, results: await presentSubscriptions(clients, reply.subscriptions) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: SUBSCRIPTIONS,
    operationId: 'createSubscription',
    summary: 'Create a subscription (other subscriptions of the account are not touched)',
    tags: TAGS,
    body: SubscriptionCreateBody,
    response: { status: 201, schema: SubscriptionSchema },
    handler: async ({ body }) => {
      const references = await resolveWriteReferences(clients, body);
      const { input, present_fields } = createInput(body);
      const reply = await subscriptions.call('createSubscription', {
        account: references.account!.uuid,
        subscription: input,
        present_fields,
      });
      return present(reply.subscription, knownOf(references));
    },
  });

  const subscribe = defineRoute({
    method: 'post',
    path: '/api/v1/accounts/{code}/subscribe/',
    operationId: 'subscribeAccount',
    summary: "Subscribe the account, cancelling and crediting the account's other subscriptions",
    description: 'An action (gaps.md §1): 200 with the new subscription. An unknown account code is 404.',
    tags: TAGS,
    params: CodeParams,
    body: SubscribeBody,
    response: { status: 200, schema: SubscriptionSchema },
    handler: async ({ params, body }) => {
      const account = await findAccountByCode(clients, params.code);
      if (!account) throw notFound();
      const reply = await subscriptions.call('subscribe', {
        account: account.uuid,
        terms: body.terms,
        quantity: body.quantity,
        collection_method: body.collection_method,
        group_on_invoice: body.group_on_invoice ?? false,
      });
      return present(reply.subscription, { accounts: [account] });
    },
  });

  const get = defineRoute({
    method: 'get',
    path: SUBSCRIPTION,
    operationId: 'getSubscription',
    summary: 'One subscription',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: SubscriptionSchema },
    handler: async ({ params }) =>
      present((await subscriptions.call('getSubscription', { uuid: params.uuid })).subscription),
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: SUBSCRIPTION,
      operationId: method === 'put' ? 'replaceSubscription' : 'updateSubscription',
      summary: 'Update a subscription (PUT and PATCH are both partial)',
      description:
        'change_type (default immediate), prorate_date (only and required with at_specified_time), change_renewal (0-11, only with at_renewal), early_renewal (not with at_renewal), prorate (deprecated).',
      tags: TAGS,
      params: UuidParams,
      body: SubscriptionUpdateBody,
      response: { status: 200, schema: SubscriptionSchema },
      handler: async ({ params, body }) => {
        const references = await resolveWriteReferences(clients, { churn_reason: body.churn_reason });
        const { input, present_fields, change } = updateInput(body);
        const reply = await subscriptions.call('updateSubscription', {
          uuid: params.uuid,
          subscription: input,
          present_fields,
          change,
        });
        return present(reply.subscription, knownOf(references));
      },
    });

  const cancel = defineRoute({
    method: 'post',
    path: `${SUBSCRIPTION}cancel/`,
    operationId: 'cancelSubscription',
    summary: 'Cancel a subscription',
    description:
      'cancellation_type: full_refund, at_renewal (+ cancel_renewal 0-11), today, at_specified_time (+ cancel_date), cancel_invalid.',
    tags: TAGS,
    params: UuidParams,
    body: CancelBody,
    response: { status: 200, schema: SubscriptionSchema },
    handler: async ({ params, body }) => {
      const reply = await subscriptions.call('cancelSubscription', {
        uuid: params.uuid,
        cancellation_type: body.cancellation_type,
        cancel_renewal: body.cancel_renewal,
        cancel_date: body.cancel_date,
      });
      return present(reply.subscription);
    },
  });

  const reactivate = defineRoute({
    method: 'post',
    path: `${SUBSCRIPTION}reactivate/`,
    operationId: 'reactivateSubscription',
    summary: 'Reactivate a not_renewing or expired subscription',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: SubscriptionSchema },
    handler: async ({ params }) =>
      present((await subscriptions.call('reactivateSubscription', { uuid: params.uuid })).subscription),
  });

  const renewNow = defineRoute({
    method: 'post',
    path: `${SUBSCRIPTION}renew-now/`,
    aliases: [`${SUBSCRIPTION}renew_now/`],
    operationId: 'renewSubscriptionNow',
    summary: 'Perform the next renewal now',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: SubscriptionSchema },
    handler: async ({ params }) =>
      present((await subscriptions.call('renewSubscriptionNow', { uuid: params.uuid })).subscription),
  });

  return [list, create, subscribe, get, update('put'), update('patch'), cancel, reactivate, renewNow];
}

function knownOf(references: WriteReferences): KnownEmbeds {
  return {
    accounts: references.account ? [references.account] : [],
    churnReasons: references.churnReason ? [references.churnReason] : [],
  };
}
