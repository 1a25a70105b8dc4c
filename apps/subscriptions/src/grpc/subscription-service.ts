import { AppError } from '@billing/errors';
import { type GrpcService, unaryService } from '@billing/grpc';
import { subscriptionsV1 } from '@billing/proto';
import { requireOrganization } from '../use-cases/change-transaction.js';
import type { SubscriptionsDeps } from '../use-cases/deps.js';
import { createSubscription, subscribe } from '../use-cases/subscriptions/create-subscription.js';
import { previewRenewal } from '../use-cases/subscriptions/preview-renewal.js';
import { processAllDue } from '../use-cases/subscriptions/process-due.js';
import { chargesMadeAt, getSubscription, listSubscriptions } from '../use-cases/subscriptions/read-subscriptions.js';
import {
  cancelSubscription,
  reactivateSubscription,
  renewSubscriptionNow,
} from '../use-cases/subscriptions/subscription-actions.js';
import { updateSubscription } from '../use-cases/subscriptions/update-subscription.js';
import { subscriptionWrite } from './subscription-mapper.js';

/** Transport only: decode, call the use case, encode. */
export function subscriptionService(deps: SubscriptionsDeps): GrpcService {
  return unaryService(subscriptionsV1.SubscriptionServiceService, {
    createSubscription: async (request, context) => {
      const write = subscriptionWrite(request.subscription, request.present_fields);
      return { subscription: await createSubscription(deps, context, request.account, write) };
    },
    subscribe: async (request, context) => ({ subscription: await subscribe(deps, context, request) }),
    getSubscription: async (request, context) => ({
      subscription: await getSubscription(deps, context, request.uuid),
    }),
    listSubscriptions: async (request, context) => listSubscriptions(deps, context, request),
    updateSubscription: async (request, context) => {
      const write = subscriptionWrite(request.subscription, request.present_fields);
      return { subscription: await updateSubscription(deps, context, request, write) };
    },
    cancelSubscription: async (request, context) => ({
      subscription: await cancelSubscription(deps, context, request),
    }),
    reactivateSubscription: async (request, context) => ({
      subscription: await reactivateSubscription(deps, context, request.uuid),
    }),
    renewSubscriptionNow: async (request, context) => ({
      subscription: await renewSubscriptionNow(deps, context, request.uuid),
    }),
    previewRenewal: async (request, context) => ({ charges: await previewRenewal(deps, context, request.account) }),
    processDue: async (request, context) => {
      const organizationId = requireOrganization(context);
      if (!context.organizationTime || !request.until) {
        throw AppError.refused(
          'NOT_ON_TEST_CLOCK',
          'Only an organization on a test clock processes due work on request.',
        );
      }
      const processed = await processAllDue(deps.orm, {
        now: request.until,
        testClockOrganization: organizationId,
        batchSize: 500,
        context,
      });
      // Everything processed ran at `until`: its charges carry that moment.
      return { processed, charge_ids: await chargesMadeAt(deps, organizationId, request.until) };
    },
  });
}
