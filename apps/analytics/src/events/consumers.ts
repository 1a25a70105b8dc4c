import {
  type EventBus,
  type EventEnvelope,
  type EventsLogger,
  type RunningConsumer,
  startConsumer,
  streamNameFor,
} from '@billing/events';
import { accountEventsV1, catalogEventsV1, type catalogV1, subscriptionEventsV1 } from '@billing/proto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendToEventLog, lockOrganizationActivities } from '../db/event-log.js';
import type { AnalyticsDeps } from '../use-cases/deps.js';
import {
  applyAccount,
  applyChurnReason,
  applyOrganization,
  applyPlan,
  applyPlanTerms,
  type PlanTermsState,
} from '../use-cases/read-models.js';
import { recordInvoiceActivity } from '../use-cases/record-invoice-activity.js';
import { recordSubscriptionChange } from '../use-cases/record-subscription-change.js';
import { activityMark, publishActivitiesSince } from './activity-events.js';
import { aloneAsBatch, handleInvoiceEvents, handlePaymentEvents } from './invoice-activity-batch.js';
import { INVOICE_ACTIVITY, invoiceActivityOf } from './invoice-activity-mapper.js';
import { subscriptionChangeOf } from './subscription-change-mapper.js';
import { handleSubscriptionsBatch, isAppliedSubscriptionsEvent } from './subscription-changes-batch.js';

/** The durable consumers of one analytics schema (`analytics-…` in production, shared by replicas). */
export const consumerNames = (schema: string) => ({
  accounts: `${schema}-accounts`,
  subscriptions: `${schema}-subscriptions`,
  invoices: `${schema}-invoices`,
  payments: `${schema}-payments`,
});

/** The one payments event activities are made from: a card payment succeeded (`payment_made`). */
export const PAYMENT_SUCCEEDED_SUBJECT = 'payments.payment.succeeded';

/** What an event activities are made from carries, as applied live or replayed from the journal. */
export type JournaledEvent = Pick<
  EventEnvelope,
  'event_id' | 'event_type' | 'organization_id' | 'occurred_at' | 'payload_type' | 'payload'
>;

const occurredAt = (envelope: Pick<EventEnvelope, 'occurred_at'>): Date => envelope.occurred_at ?? new Date(0);

function termsState(terms: catalogV1.PlanTerms): PlanTermsState {
  return {
    uuid: terms.uuid,
    plan: terms.plan,
    code: terms.code,
    currency: terms.currency,
    interval_type: terms.interval_type,
    interval_count: terms.interval_count,
    revenue_group: terms.revenue_group ?? null,
  };
}

/** accounts.organization.*, .account.*, .churn_reason.*: MRR settings, the accounts' and churn reasons' names. */
export async function handleAccountsEvent(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  if (envelope.payload_type === 'billing.events.v1.OrganizationChanged') {
    const organization = accountEventsV1.OrganizationChanged.decode(envelope.payload);
    await applyOrganization(em, {
      id: organization.id,
      base_currency: organization.base_currency,
      time_zone: organization.time_zone,
      exchange_rates: organization.exchange_rates.map(({ currency, rate, valid_from }) => ({
        currency,
        rate,
        valid_from,
      })),
    });
  } else if (envelope.payload_type === 'billing.events.v1.AccountChanged') {
    const { account } = accountEventsV1.AccountChanged.decode(envelope.payload);
    if (!account) throw new Error(`${envelope.event_type} ${envelope.event_id} has no account`);
    await applyAccount(em, envelope.organization_id, {
      uuid: account.uuid,
      code: account.code,
      company_name: account.company_name ?? '',
      legal_country: account.legal_country,
      ean_invoicing: account.ean_invoicing,
    });
  } else if (envelope.payload_type === 'billing.events.v1.ChurnReasonChanged') {
    const { churn_reason: reason } = accountEventsV1.ChurnReasonChanged.decode(envelope.payload);
    if (!reason) throw new Error(`${envelope.event_type} ${envelope.event_id} has no churn reason`);
    await applyChurnReason(em, envelope.organization_id, { uuid: reason.uuid, name: reason.name });
  }
}

/** subscriptions.>: plans and terms (names), subscription.changed (activities, MRR); the rest is not analytics'. */
export async function handleSubscriptionsEvent(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  switch (envelope.payload_type) {
    case 'billing.events.v1.PlanChanged': {
      const { plan } = catalogEventsV1.PlanChanged.decode(envelope.payload);
      if (plan)
        await applyPlan(em, envelope.organization_id, {
          uuid: plan.uuid,
          name: plan.name,
          code: plan.code,
          collect_vat: plan.collect_vat,
          vat_type: plan.vat_type,
          terms: plan.planterms.map(termsState),
        });
      return;
    }
    case 'billing.events.v1.PlanTermsChanged': {
      const { plan_terms: terms } = catalogEventsV1.PlanTermsChanged.decode(envelope.payload);
      if (terms) await applyPlanTerms(em, envelope.organization_id, termsState(terms));
      return;
    }
    case 'billing.events.v1.SubscriptionChanged':
      return recordActivityEvent(em, envelope);
    default:
      return;
  }
}

/** A batch of subscriptions.> events: the same effects as handleSubscriptionsEvent on each in order. */
export const handleSubscriptionsEvents = (em: EntityManager, envelopes: readonly EventEnvelope[]): Promise<void> =>
  handleSubscriptionsBatch(em, envelopes, handleSubscriptionsEvent);

/**
 * An event activities are made from (subscription.changed, invoice.issued / .paid,
 * payment.succeeded): under the organization's lock, journaled (what a rebuild replays), applied,
 * and each activity it recorded published (activity.created).
 */
async function recordActivityEvent(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  await lockOrganizationActivities(em, envelope.organization_id);
  await appendToEventLog(em, envelope);
  const mark = await activityMark(em);
  await applyActivityEvent(em, envelope);
  // The activities it recorded are news (new_activity webhooks); a rebuild's replay publishes none.
  await publishActivitiesSince(
    em,
    {
      organizationId: envelope.organization_id,
      requestId: envelope.request_id || envelope.event_id,
      occurredAt: occurredAt(envelope),
    },
    mark,
  );
}

/** Applies one journaled event to the activities (the consumers, and a rebuild's replay). */
export async function applyActivityEvent(em: EntityManager, envelope: JournaledEvent): Promise<void> {
  if (envelope.payload_type === 'billing.events.v1.SubscriptionChanged') {
    const { change, record } = subscriptionChangeOf(subscriptionEventsV1.SubscriptionChanged.decode(envelope.payload));
    await recordSubscriptionChange(em, envelope.organization_id, change, record, occurredAt(envelope));
    return;
  }
  const activity = invoiceActivityOf(envelope);
  if (activity) await recordInvoiceActivity(em, activity.organizationId, activity.type, activity.invoice, activity.at);
}

/** invoicing.invoice.issued / .paid: invoice_sent / invoice_paid activities (other invoice events: none). */
export async function handleInvoiceEvent(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  if (envelope.event_type in INVOICE_ACTIVITY) await recordActivityEvent(em, envelope);
}

/** payments.payment.succeeded: a `payment_made` activity (declines make none). */
export async function handlePaymentEvent(em: EntityManager, envelope: EventEnvelope): Promise<void> {
  if (envelope.event_type === 'payment.succeeded') await recordActivityEvent(em, envelope);
}

/**
 * What the consumers handle a message with that is handled alone (it arrived by itself, or its
 * batch failed and each message is retried on its own): a batch of one, with the same effects as
 * the one-by-one handlers above (the batch tests compare them) and fewer statements. The one-by-one
 * handlers stay the reference the batches are compared with, and a rebuild replays with them.
 */
export const handleSubscriptionsEventAlone = (em: EntityManager, envelope: EventEnvelope): Promise<void> =>
  handleSubscriptionsEvents(em, [envelope]);
export const handleInvoiceEventAlone = aloneAsBatch(handleInvoiceEvents, handleInvoiceEvent);
export const handlePaymentEventAlone = aloneAsBatch(handlePaymentEvents, handlePaymentEvent);

/** A failed event is retried soon: most failures here are an organization not known yet. */
const retryDelayMs = (deliveries: number) => Math.min(10_000, 100 * 2 ** (deliveries - 1));

/**
 * Starts analytics' four durable consumers (inbox rows and effects in one transaction per batch:
 * the messages that arrived while the previous batch was being applied; one when they come slowly).
 */
export async function startAnalyticsConsumers(
  deps: AnalyticsDeps,
  options: { bus: EventBus; logger: EventsLogger; schema: string },
): Promise<RunningConsumer[]> {
  const names = consumerNames(options.schema);
  const common = {
    orm: deps.orm,
    bus: options.bus,
    logger: options.logger,
    clock: deps.clock,
    retryDelayMs,
    batch: true,
    // A full pull is one turn of the organization's activity lock: the consumers of an organization
    // take turns (db/event-log.ts), so more events per turn is more per commit held under it.
    fetchSize: 1_000,
  };
  return Promise.all([
    startConsumer({
      ...common,
      consumer: names.accounts,
      stream: streamNameFor('accounts'),
      filterSubject: 'accounts.>',
      handle: handleAccountsEvent,
    }),
    startConsumer({
      ...common,
      consumer: names.subscriptions,
      stream: streamNameFor('subscriptions'),
      filterSubject: 'subscriptions.>',
      handle: handleSubscriptionsEventAlone,
      handleBatch: handleSubscriptionsEvents,
      // charge.created and the like (one per renewal): acked without a transaction or an inbox row.
      ignore: (envelope) => !isAppliedSubscriptionsEvent(envelope),
    }),
    startConsumer({
      ...common,
      consumer: names.invoices,
      stream: streamNameFor('invoicing'),
      filterSubject: 'invoicing.invoice.*',
      handle: handleInvoiceEventAlone,
      handleBatch: handleInvoiceEvents,
      ignore: (envelope) => !(envelope.event_type in INVOICE_ACTIVITY),
    }),
    startConsumer({
      ...common,
      consumer: names.payments,
      stream: streamNameFor('payments'),
      filterSubject: PAYMENT_SUCCEEDED_SUBJECT,
      handle: handlePaymentEventAlone,
      handleBatch: handlePaymentEvents,
    }),
  ]);
}
