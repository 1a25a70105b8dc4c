import { pageSpec } from '@billing/domain-kit';
import { type GrpcService, unaryService } from '@billing/grpc';
import { webhooksV1 } from '@billing/proto';
import { deliverDueWebhooks } from '../use-cases/webhooks/deliver-due.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
} from '../use-cases/webhooks/manage-webhooks.js';
import { listWebhookDeliveries, resendWebhookDelivery } from '../use-cases/webhooks/webhook-deliveries.js';
import type { WebhooksDeps } from '../use-cases/webhooks/webhooks-deps.js';
import { deliveryMessage, webhookMessage, webhookWrite } from './webhook-mapper.js';

/** Transport only: decode, call the use case, encode. */
export function webhookService(deps: WebhooksDeps): GrpcService {
  return unaryService(webhooksV1.WebhookServiceService, {
    createWebhook: async (request, context) => {
      const created = await createWebhook(deps, context, webhookWrite(request.webhook, request.present_fields));
      return { webhook: webhookMessage(created.webhook), secret: created.secret };
    },
    getWebhook: async (request, context) => ({
      webhook: webhookMessage(await getWebhook(deps, context, request.uuid)),
    }),
    listWebhooks: async (request, context) => {
      const { count, webhooks } = await listWebhooks(deps, context, pageSpec(request.page));
      return { count, webhooks: webhooks.map(webhookMessage) };
    },
    updateWebhook: async (request, context) => ({
      webhook: webhookMessage(
        await updateWebhook(
          deps,
          context,
          request.uuid,
          webhookWrite(request.webhook, request.present_fields),
          request.replace,
        ),
      ),
    }),
    deleteWebhook: async (request, context) => {
      await deleteWebhook(deps, context, request.uuid);
      return {};
    },
    listWebhookDeliveries: async (request, context) => {
      const { count, deliveries } = await listWebhookDeliveries(deps, context, request.webhook, pageSpec(request.page));
      return { count, deliveries: deliveries.map(deliveryMessage) };
    },
    resendWebhookDelivery: async (request, context) => ({
      delivery: deliveryMessage(await resendWebhookDelivery(deps, context, request.webhook, request.delivery)),
    }),
    deliverDueWebhooks: async (request, context) => ({
      attempted: await deliverDueWebhooks(deps, context, request.timeout_ms),
    }),
  });
}
