import type { Clock } from '@billing/clock';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationEntity } from '../../db/entities/organization.entity.js';
import { insertDeliveries } from '../../db/webhook-delivery-store.js';
import { findSubscribedWebhooks } from '../../db/webhook-store.js';
import { deliveryBody, type WebhookEvent } from '../../domain/webhooks/delivery-view.js';

/** The organization's time: its test clock's when it runs on one. */
export async function organizationNow(em: EntityManager, organizationId: string, clock: Clock): Promise<Date> {
  const organization = await em.findOne(OrganizationEntity, { id: organizationId }, { fields: ['test_clock_time'] });
  return organization?.test_clock_time ?? clock.now();
}

/**
 * One delivery of the event for each enabled webhook of its organization that takes it, due now
 * on the organization's clock; in the caller's (inbox) transaction, so an event makes its
 * deliveries exactly once. The data is rendered only when some webhook takes the event. Returns
 * how many deliveries were new.
 */
export async function recordWebhookDeliveries(
  em: EntityManager,
  clock: Clock,
  event: Omit<WebhookEvent, 'data'>,
  renderData: () => Promise<unknown>,
): Promise<number> {
  const webhooks = await findSubscribedWebhooks(em, event.organizationId, event.name);
  if (webhooks.length === 0) return 0;
  const now = await organizationNow(em, event.organizationId, clock);
  const payload = deliveryBody({ name: event.name, data: await renderData() });
  return insertDeliveries(
    em,
    webhooks.map((webhook) => ({
      organizationId: event.organizationId,
      webhookId: webhook.id,
      eventName: event.name,
      eventId: event.eventId,
      payload,
      dueAt: now,
      now,
    })),
  );
}
