import {
  type EventBus,
  type EventsLogger,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
  subjectFor,
} from '@billing/events';
import type { InvoicingDeps } from '../use-cases/deps.js';
import { invoiceCharge } from '../use-cases/invoice-charge.js';

/** Durable consumer name per schema: `invoicing-charges` in production (shared by replicas), one per test schema. */
export const chargeConsumerName = (schema: string): string => `${schema}-charges`;

/** Turns the subscription engine's charge.created events into invoices (exactly once per charge). */
export function startChargeConsumer(
  deps: InvoicingDeps,
  options: { bus: EventBus; logger: EventsLogger; consumer: string },
): Promise<RunningConsumer> {
  return startConsumer({
    orm: deps.orm,
    bus: options.bus,
    logger: options.logger,
    clock: deps.clock,
    consumer: options.consumer,
    stream: streamNameFor('subscriptions'),
    filterSubject: subjectFor('subscriptions', 'charge.created'),
    handle: (em, envelope) => invoiceCharge(deps, em, envelope),
  });
}
