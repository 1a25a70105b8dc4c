import { appendToOutbox } from '@billing/events';
import { accountEventsV1, encodeMessage } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrganizationRow } from '../db/entities/organization.entity.js';

export type OrganizationEventType = 'organization.created' | 'organization.updated';

/** Subjects this service publishes on for organizations (stream ACCOUNTS). */
export const ORGANIZATION_EVENT_TYPES: readonly OrganizationEventType[] = [
  'organization.created',
  'organization.updated',
];

/**
 * Appends an organization event in the admin command's transaction: what other services keep of
 * an organization (analytics reads the base currency, the time zone and the exchange rates of MRR).
 */
export function publishOrganizationEvent(
  em: EntityManager,
  eventType: OrganizationEventType,
  organization: OrganizationRow,
  now: Date,
): void {
  appendToOutbox(em, {
    producer: 'accounts',
    eventType,
    organizationId: organization.id,
    aggregateType: 'organization',
    aggregateId: organization.id,
    payloadType: 'billing.events.v1.OrganizationChanged',
    payload: encodeMessage(accountEventsV1.OrganizationChanged, {
      id: organization.id,
      name: organization.name,
      base_currency: organization.base_currency,
      time_zone: organization.time_zone,
      exchange_rates: organization.exchange_rates ?? [],
    }),
    occurredAt: now,
  });
}
