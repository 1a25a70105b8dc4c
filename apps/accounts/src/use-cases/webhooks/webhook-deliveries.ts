import { readSnapshot } from '@billing/db';
import type { PageSpec } from '@billing/domain-kit';
import type { RequestContext } from '@billing/observability';
import { findDeliveryPage, loadDeliveryView, markForResend, requireDelivery } from '../../db/webhook-delivery-store.js';
import { requireWebhook } from '../../db/webhook-store.js';
import type { DeliveryView } from '../../domain/webhooks/delivery-view.js';
import { requireOrganization, runChange } from '../change-transaction.js';
import type { WebhooksDeps } from './webhooks-deps.js';

/** The webhook's delivery log, newest first. */
export async function listWebhookDeliveries(
  deps: WebhooksDeps,
  context: RequestContext,
  webhookUuid: string,
  page: PageSpec,
): Promise<{ count: number; deliveries: DeliveryView[] }> {
  const organizationId = requireOrganization(context);
  // One snapshot: a delivery and its attempts as one attempt's transaction left them.
  return readSnapshot(deps.orm.em.fork(), async (em) => {
    const webhook = await requireWebhook(em, organizationId, webhookUuid);
    return findDeliveryPage(em, organizationId, webhook.id, {
      limit: page.pageSize,
      offset: (page.page - 1) * page.pageSize,
    });
  });
}

/**
 * Resend: the delivery is due again now (same body, same webhook-id). A failed or succeeded one
 * starts a new retry schedule; a pending one is only brought forward. The answer is the delivery
 * as it stands before the new attempt, which follows at once.
 */
export async function resendWebhookDelivery(
  deps: WebhooksDeps,
  context: RequestContext,
  webhookUuid: string,
  deliveryUuid: string,
): Promise<DeliveryView> {
  const view = await runChange(deps, context, async (scope) => {
    const webhook = await requireWebhook(scope.em, scope.organizationId, webhookUuid);
    const delivery = await requireDelivery(scope.em, scope.organizationId, webhook.id, deliveryUuid);
    // scope.now is the organization's time (its test clock's when it runs on one).
    await markForResend(scope.em, delivery, scope.now, scope.now);
    scope.audit('webhook_delivery.resend', 'webhook_delivery', delivery.id, { event_id: delivery.event_id });
    return loadDeliveryView(scope.em, delivery);
  });
  deps.wakeDispatcher();
  return view;
}
