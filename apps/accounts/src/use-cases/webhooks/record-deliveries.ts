import type { Clock } from '@billing/clock';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrganizationEntity } from '../../db/entities/organization.entity.js';
import { insertDeliveries } from '../../db/webhook-delivery-store.js';
import { findEnabledWebhooks } from '../../db/webhook-store.js';
import { deliveryBody, type WebhookEvent } from '../../domain/webhooks/delivery-view.js';
import type { EnabledWebhooks } from './enabled-webhooks.js';

/** The organization's time: its test clock's when it runs on one. */
export async function organizationNow(em: EntityManager, organizationId: string, clock: Clock): Promise<Date> {
  const organization = await em.findOne(OrganizationEntity, { id: organizationId }, { fields: ['test_clock_time'] });
  return organization?.test_clock_time ?? clock.now();
}

/** An event that may become webhook deliveries, and how its data is rendered when some webhook takes it. */
export interface WebhookEventSource {
  event: Omit<WebhookEvent, 'data'>;
  renderData: () => Promise<unknown>;
}

/**
 * One delivery of each event for each enabled webhook of its organization that takes it, due now
 * on the organization's clock; in the caller's (inbox) transaction, so an event makes its
 * deliveries exactly once. For a batch of events, the same deliveries as one event after the
 * other: their organizations' webhooks read by one query, each organization's clock read once
 * (and only when one of its webhooks takes an event), an event's data rendered only when one of
 * them takes it, every delivery inserted by one statement. Returns how many deliveries were new.
 */
export async function recordEventsWebhookDeliveries(
  em: EntityManager,
  clock: Clock,
  sources: readonly WebhookEventSource[],
  /** Told what was read, for the consumers' next events. */
  cache?: EnabledWebhooks,
): Promise<number> {
  if (sources.length === 0) return 0;
  const generation = cache?.readStarted();
  const webhooks = await findEnabledWebhooks(
    em,
    sources.map(({ event }) => event.organizationId),
  );
  if (cache && generation !== undefined) cache.store(generation, webhooks);
  const clocks = new Map<string, Date>();
  const deliveries: Parameters<typeof insertDeliveries>[1][number][] = [];
  for (const { event, renderData } of sources) {
    const organization = event.organizationId.toLowerCase();
    const taking = (webhooks.get(organization) ?? []).filter((webhook) => webhook.events.includes(event.name));
    if (taking.length === 0) continue;
    let now = clocks.get(organization);
    if (!now) {
      now = await organizationNow(em, event.organizationId, clock);
      clocks.set(organization, now);
    }
    const payload = deliveryBody({ name: event.name, data: await renderData() });
    for (const webhook of taking) {
      deliveries.push({
        organizationId: event.organizationId,
        webhookId: webhook.id,
        eventName: event.name,
        eventId: event.eventId,
        payload,
        dueAt: now,
        now,
      });
    }
  }
  return insertDeliveries(em, deliveries);
}
