import { type GrpcService, unaryService } from '@billing/grpc';
import { subscriptionsV1 } from '@billing/proto';
import type { SubscriptionsDeps } from '../use-cases/deps.js';
import { createSubscription, subscribe } from '../use-cases/subscriptions/create-subscription.js';
import { previewRenewal } from '../use-cases/subscriptions/preview-renewal.js';
import {
  confirmChargesInvoicedOnTestClock,
  processDueOnTestClock,
} from '../use-cases/subscriptions/process-due-on-test-clock.js';
import { getSubscription, listSubscriptions } from '../use-cases/subscriptions/read-subscriptions.js';
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
    processDue: (request, context) => processDueOnTestClock(deps, context, request.until),
    confirmChargesInvoiced: async (request, context) => {
      await confirmChargesInvoicedOnTestClock(deps, context, request.charge_ids);
      return {};
    },
  });
}
