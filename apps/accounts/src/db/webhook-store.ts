import { isUuid } from '@billing/domain-kit';
import { AppError } from '@billing/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookEventName } from '../domain/webhooks/event-names.js';
import type { WebhookView } from '../domain/webhooks/webhook-fields.js';
import { WebhookEntity, type WebhookRow } from './entities/webhook.entity.js';

export function webhookView(row: WebhookRow): WebhookView {
  return {
    uuid: row.id,
    endpoint: row.endpoint,
    basic_auth_username: row.basic_auth_username,
    enabled: row.enabled,
    events: row.events as WebhookEventName[],
    created_date: row.created_at,
    last_modified_date: row.updated_at,
  };
}

/** The organization's webhook with that uuid, or 404 (also for another organization's, or no uuid). */
export async function requireWebhook(em: EntityManager, organizationId: string, uuid: string): Promise<WebhookRow> {
  const row = isUuid(uuid) ? await em.findOne(WebhookEntity, { organization_id: organizationId, id: uuid }) : null;
  if (!row) throw AppError.notFound();
  return row;
}

export function findWebhookPage(
  em: EntityManager,
  organizationId: string,
  page: { column: string; direction: 'asc' | 'desc'; limit: number; offset: number },
): Promise<[WebhookRow[], number]> {
  return em.findAndCount(
    WebhookEntity,
    { organization_id: organizationId },
    { orderBy: [{ [page.column]: page.direction }, { id: 'asc' }], limit: page.limit, offset: page.offset },
  );
}

/**
 * The enabled webhooks of each of the organizations (an organization has a handful), in id order:
 * one query for the events of a batch.
 */
export async function findEnabledWebhooks(
  em: EntityManager,
  organizationIds: readonly string[],
): Promise<Map<string, WebhookRow[]>> {
  const byOrganization = new Map<string, WebhookRow[]>(organizationIds.map((id) => [id.toLowerCase(), []]));
  if (organizationIds.length === 0) return byOrganization;
  const enabled = await em.find(
    WebhookEntity,
    { organization_id: { $in: [...new Set(organizationIds)] }, enabled: true },
    { orderBy: { id: 'asc' } },
  );
  for (const row of enabled) byOrganization.get(row.organization_id.toLowerCase())?.push(row);
  return byOrganization;
}

/**
 * The public events that some enabled webhook takes, whatever its organization: read once when the
 * service starts, to consume the streams those events come from (events/webhook-durables.ts).
 */
export async function findEventsOfEnabledWebhooks(em: EntityManager): Promise<Set<string>> {
  const enabled = await em.find(WebhookEntity, { enabled: true }, { fields: ['events'] });
  return new Set(enabled.flatMap((row) => row.events));
}
