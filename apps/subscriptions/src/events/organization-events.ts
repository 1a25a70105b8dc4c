import type { Clock } from '@billing/clock';
import {
  type EventBus,
  type EventEnvelope,
  type EventsLogger,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
} from '@billing/events';
import { accountEventsV1 } from '@billing/proto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { saveOrganizationMoney } from '../db/organization-money-store.js';

/** accounts.organization.created / .updated: base currency, time zone and exchange rates. */
export async function handleOrganizationEvent(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  if (envelope.payload_type !== 'billing.events.v1.OrganizationChanged') return;
  const organization = accountEventsV1.OrganizationChanged.decode(envelope.payload);
  await saveOrganizationMoney(em, {
    id: organization.id,
    base_currency: organization.base_currency,
    time_zone: organization.time_zone,
    exchange_rates: organization.exchange_rates.map(({ currency, rate, valid_from }) => ({
      currency,
      rate,
      valid_from,
    })),
  });
}

/** The durable consumer of accounts' organization events (`<schema>-organizations`, shared by replicas). */
export function startOrganizationConsumer(options: {
  orm: MikroORM;
  bus: EventBus;
  logger: EventsLogger;
  clock: Clock;
  schema: string;
}): Promise<RunningConsumer> {
  return startConsumer({
    orm: options.orm,
    bus: options.bus,
    logger: options.logger,
    clock: options.clock,
    consumer: `${options.schema}-organizations`,
    stream: streamNameFor('accounts'),
    filterSubject: 'accounts.organization.*',
    handle: handleOrganizationEvent,
  });
}
