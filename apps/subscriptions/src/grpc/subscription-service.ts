import { pageSpec } from '@billing/domain-kit';
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
import { chargeMessage } from './charge-mapper.js';
import { subscriptionListFilter, subscriptionMessage, subscriptionWrite } from './subscription-mapper.js';

/** Transport only: decode, call the use case, encode. */
export function subscriptionService(deps: SubscriptionsDeps): GrpcService {
  return unaryService(subscriptionsV1.SubscriptionServiceService, {
    createSubscription: async (request, context) => {
      const write = subscriptionWrite(request.subscription, request.present_fields);
      return { subscription: subscriptionMessage(await createSubscription(deps, context, request.account, write)) };
    },
    subscribe: async (request, context) => ({
      subscription: subscriptionMessage(await subscribe(deps, context, request)),
    }),
    getSubscription: async (request, context) => ({
      subscription: subscriptionMessage(await getSubscription(deps, context, request.uuid)),
    }),
    listSubscriptions: async (request, context) => {
      const filter = subscriptionListFilter(request.filter);
      const { count, subscriptions } = await listSubscriptions(deps, context, filter, pageSpec(request.page));
      return { count, subscriptions: subscriptions.map(subscriptionMessage) };
    },
    updateSubscription: async (request, context) => {
      const write = subscriptionWrite(request.subscription, request.present_fields);
      const view = await updateSubscription(deps, context, request.uuid, write, request.change);
      return { subscription: subscriptionMessage(view) };
    },
    cancelSubscription: async (request, context) => ({
      subscription: subscriptionMessage(await cancelSubscription(deps, context, request.uuid, request)),
    }),
    reactivateSubscription: async (request, context) => ({
      subscription: subscriptionMessage(await reactivateSubscription(deps, context, request.uuid)),
    }),
    renewSubscriptionNow: async (request, context) => ({
      subscription: subscriptionMessage(await renewSubscriptionNow(deps, context, request.uuid)),
    }),
    previewRenewal: async (request, context) => ({
      charges: (await previewRenewal(deps, context, request.account)).map(chargeMessage),
    }),
    processDue: (request, context) => processDueOnTestClock(deps, context, request.until),
    confirmChargesInvoiced: async (request, context) => {
      await confirmChargesInvoicedOnTestClock(deps, context, request.charge_ids);
      return {};
    },
  });
}
