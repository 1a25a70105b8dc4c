import type { RequestContext } from '@billing/observability';
import type { analyticsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { defineListRoute, defineRoute, type Route } from '../../http/index.js';
import { catalogInput } from '../catalog/catalog-representation.js';
import { pageOf } from '../shared/page-of.js';
import { UuidParams } from '../shared/path-params.js';
import { accountActivityFilterOf, activityFilterOf } from './activity-filter.js';
import { loadActivityPlans, presentAccountActivity, presentActivity } from './activity-representation.js';
import {
  ACCOUNT_ACTIVITY_ORDERING,
  ACTIVITY_ORDERING,
  AccountActivityBody,
  AccountActivityFilters,
  AccountActivityPatchBody,
  AccountActivitySchema,
  ActivityFilters,
  ActivitySchema,
  ManualActivityBody,
  ManualActivityPatchBody,
} from './activity-schemas.js';

const ACTIVITIES = '/api/v1/activities/';
const ACTIVITY = `${ACTIVITIES}{uuid}/`;
const ACCOUNT_ACTIVITIES = `${ACTIVITIES}account/`;
const ACCOUNT_ACTIVITY = `${ACCOUNT_ACTIVITIES}{uuid}/`;
const TAGS = ['activities'];

/** Write bodies as the service takes them: date-times as Dates, sent fields named (nulls included). */
function writeInput<Input>(body: Record<string, unknown>, dates: readonly string[]) {
  const converted = Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      dates.includes(name) && typeof value === 'string' ? new Date(value) : value,
    ]),
  );
  return catalogInput<Input>(converted);
}

/**
 * api-spec "Activities" and gaps.md §8, served by the analytics service: activities and account
 * activities (lists with every filter, newest first; details; manual writes; DELETE marks deleted).
 * Another organization's activity is 404. docs/analytics.md has the decisions.
 */
export function activityRoutes(clients: ServiceClients): Route[] {
  const { activities, identity } = clients;
  const timeZone = (context: RequestContext) => async () =>
    context.organizationTimeZone ?? (await identity.call('getOrganization', {})).organization!.time_zone;
  const present = async (activity: analyticsV1.Activity | undefined) =>
    presentActivity(activity!, await loadActivityPlans(clients, [activity!]));

  const list = defineListRoute({
    path: ACTIVITIES,
    operationId: 'listActivities',
    summary: 'List activities (MRR movements of subscriptions)',
    description:
      'Newest first (-date) by default; deleted activities only with deleted=true. type and activity_type take a comma-separated list; future=true: dated after now.',
    tags: TAGS,
    item: ActivitySchema,
    query: ActivityFilters,
    ordering: ACTIVITY_ORDERING,
    handler: async ({ query, page, context }) => {
      const reply = await activities.call('listActivities', {
        page: pageOf(page, '-date'),
        filter: await activityFilterOf(query, timeZone(context)),
      });
      const plans = await loadActivityPlans(clients, reply.activities);
      return { count: reply.count, results: reply.activities.map((activity) => presentActivity(activity, plans)) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path: ACTIVITIES,
    operationId: 'createActivity',
    summary: 'Create a manual activity',
    description:
      'mrr is in the terms’ currency (converted to the base currency at the organization’s rate); old_mrr and type follow from the subscription’s activities before date.',
    tags: TAGS,
    body: ManualActivityBody,
    response: { status: 201, schema: ActivitySchema },
    handler: async ({ body }) => {
      const { input } = writeInput<analyticsV1.ActivityInput>(body, ['date']);
      return present((await activities.call('createActivity', { activity: input })).activity);
    },
  });

  const get = defineRoute({
    method: 'get',
    path: ACTIVITY,
    operationId: 'getActivity',
    summary: 'One activity',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: ActivitySchema },
    handler: async ({ params }) => present((await activities.call('getActivity', { uuid: params.uuid })).activity),
  });

  const update = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: ACTIVITY,
      operationId: method === 'put' ? 'replaceActivity' : 'updateActivity',
      summary: method === 'put' ? 'Replace a manual activity' : 'Update some fields of a manual activity',
      description: 'Manual activities only; others answer 400 {"detail"}.',
      tags: TAGS,
      params: UuidParams,
      body: method === 'put' ? ManualActivityBody : ManualActivityPatchBody,
      response: { status: 200, schema: ActivitySchema },
      handler: async ({ params, body }) => {
        const { input, present_fields } = writeInput<analyticsV1.ActivityInput>(body, ['date']);
        return present(
          (await activities.call('updateActivity', { uuid: params.uuid, activity: input, present_fields })).activity,
        );
      },
    });

  const remove = defineRoute({
    method: 'delete',
    path: ACTIVITY,
    operationId: 'deleteActivity',
    summary: 'Mark an activity deleted',
    tags: TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await activities.call('deleteActivity', { uuid: params.uuid });
      return undefined;
    },
  });

  const accountList = defineListRoute({
    path: ACCOUNT_ACTIVITIES,
    operationId: 'listAccountActivities',
    summary: 'List account activities (MRR movements of accounts)',
    description: 'Newest first (-date) by default; deleted ones only with deleted=true.',
    tags: TAGS,
    item: AccountActivitySchema,
    query: AccountActivityFilters,
    ordering: ACCOUNT_ACTIVITY_ORDERING,
    handler: async ({ query, page, context }) => {
      const reply = await activities.call('listAccountActivities', {
        page: pageOf(page, '-date'),
        filter: await accountActivityFilterOf(query, timeZone(context)),
      });
      return { count: reply.count, results: reply.account_activities.map(presentAccountActivity) };
    },
  });

  const accountCreate = defineRoute({
    method: 'post',
    path: ACCOUNT_ACTIVITIES,
    operationId: 'createAccountActivity',
    summary: 'Create a manual account activity',
    tags: TAGS,
    body: AccountActivityBody,
    response: { status: 201, schema: AccountActivitySchema },
    handler: async ({ body }) => {
      const { input } = writeInput<analyticsV1.AccountActivityInput>(body, [
        'date',
        'account_first_subscription_start_date',
      ]);
      return presentAccountActivity(
        (await activities.call('createAccountActivity', { account_activity: input })).account_activity!,
      );
    },
  });

  const accountGet = defineRoute({
    method: 'get',
    path: ACCOUNT_ACTIVITY,
    operationId: 'getAccountActivity',
    summary: 'One account activity',
    tags: TAGS,
    params: UuidParams,
    response: { status: 200, schema: AccountActivitySchema },
    handler: async ({ params }) =>
      presentAccountActivity((await activities.call('getAccountActivity', { uuid: params.uuid })).account_activity!),
  });

  const accountUpdate = (method: 'put' | 'patch') =>
    defineRoute({
      method,
      path: ACCOUNT_ACTIVITY,
      operationId: method === 'put' ? 'replaceAccountActivity' : 'updateAccountActivity',
      summary:
        method === 'put' ? 'Replace a manual account activity' : 'Update some fields of a manual account activity',
      description: 'Manual account activities only; others answer 400 {"detail"}.',
      tags: TAGS,
      params: UuidParams,
      body: method === 'put' ? AccountActivityBody : AccountActivityPatchBody,
      response: { status: 200, schema: AccountActivitySchema },
      handler: async ({ params, body }) => {
        const { input, present_fields } = writeInput<analyticsV1.AccountActivityInput>(body, [
          'date',
          'account_first_subscription_start_date',
        ]);
        const reply = await activities.call('updateAccountActivity', {
          uuid: params.uuid,
          account_activity: input,
          present_fields,
        });
        return presentAccountActivity(reply.account_activity!);
      },
    });

  const accountRemove = defineRoute({
    method: 'delete',
    path: ACCOUNT_ACTIVITY,
    operationId: 'deleteAccountActivity',
    summary: 'Mark an account activity deleted',
    tags: TAGS,
    params: UuidParams,
    response: { status: 204 },
    handler: async ({ params }) => {
      await activities.call('deleteAccountActivity', { uuid: params.uuid });
      return undefined;
    },
  });

  return [
    list,
    create,
    get,
    update('put'),
    update('patch'),
    remove,
    accountList,
    accountCreate,
    accountGet,
    accountUpdate('put'),
    accountUpdate('patch'),
    accountRemove,
  ];
}
