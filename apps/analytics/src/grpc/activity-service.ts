import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { analyticsV1 } from '@billing/proto';
import {
  createAccountActivity,
  deleteAccountActivity,
  getAccountActivity,
  listAccountActivities,
  updateAccountActivity,
} from '../use-cases/account-activities.js';
import {
  createActivity,
  deleteActivity,
  getActivity,
  listActivities,
  updateActivity,
} from '../use-cases/activities.js';
import type { AnalyticsDeps } from '../use-cases/deps.js';
import {
  accountActivityChangesOf,
  accountActivityFilterOf,
  accountActivityMessage,
  activityChangesOf,
  activityFilterOf,
  activityMessage,
  manualAccountActivityOf,
  manualActivityOf,
} from './activity-mapper.js';

/** Transport only: decode, call the use case, encode. */
export function activityService(deps: AnalyticsDeps): GrpcService {
  return unaryService(analyticsV1.ActivityServiceService, {
    listActivities: async (request, context) => {
      const { count, views } = await listActivities(
        deps,
        context,
        activityFilterOf(request.filter),
        pageSpec(request.page),
      );
      return { count, activities: views.map(activityMessage) };
    },
    getActivity: async (request, context) => ({
      activity: activityMessage(await getActivity(deps, context, request.uuid)),
    }),
    createActivity: async (request, context) => ({
      activity: activityMessage(await createActivity(deps, context, manualActivityOf(request.activity))),
    }),
    updateActivity: async (request, context) => ({
      activity: activityMessage(
        await updateActivity(deps, context, request.uuid, activityChangesOf(request.activity, request.present_fields)),
      ),
    }),
    deleteActivity: async (request, context) => {
      await deleteActivity(deps, context, request.uuid);
      return {};
    },
    listAccountActivities: async (request, context) => {
      const { count, views } = await listAccountActivities(
        deps,
        context,
        accountActivityFilterOf(request.filter),
        pageSpec(request.page),
      );
      return { count, account_activities: views.map(accountActivityMessage) };
    },
    getAccountActivity: async (request, context) => ({
      account_activity: accountActivityMessage(await getAccountActivity(deps, context, request.uuid)),
    }),
    createAccountActivity: async (request, context) => ({
      account_activity: accountActivityMessage(
        await createAccountActivity(deps, context, manualAccountActivityOf(request.account_activity)),
      ),
    }),
    updateAccountActivity: async (request, context) => ({
      account_activity: accountActivityMessage(
        await updateAccountActivity(
          deps,
          context,
          request.uuid,
          accountActivityChangesOf(request.account_activity, request.present_fields),
        ),
      ),
    }),
    deleteAccountActivity: async (request, context) => {
      await deleteAccountActivity(deps, context, request.uuid);
      return {};
    },
  });
}
