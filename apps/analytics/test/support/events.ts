import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@billing/events';
import {
  accountEventsV1,
  catalogEventsV1,
  invoiceEventsV1,
  paymentEventsV1,
  subscriptionEventsV1,
} from '@billing/proto';

/** Envelopes as the producers' outboxes write them, for feeding analytics' handlers in tests. */
function envelope(
  organizationId: string,
  eventType: string,
  aggregate: { type: string; id: string },
  payloadType: string,
  payload: Uint8Array,
  occurredAt: Date,
): EventEnvelope {
  return {
    event_id: randomUUID(),
    event_type: eventType,
    schema_version: 1,
    organization_id: organizationId,
    occurred_at: occurredAt,
    request_id: randomUUID(),
    aggregate_type: aggregate.type,
    aggregate_id: aggregate.id,
    payload_type: `billing.events.v1.${payloadType}`,
    payload: Buffer.from(payload),
  };
}

export function organizationCreated(
  id: string,
  base = 'DKK',
  rates: Array<{ currency: string; rate: string; valid_from: string }> = [],
): EventEnvelope {
  const payload = accountEventsV1.OrganizationChanged.encode({
    id,
    name: 'Org',
    base_currency: base,
    time_zone: 'Europe/Copenhagen',
    exchange_rates: rates,
  }).finish();
  return envelope(id, 'organization.created', { type: 'organization', id }, 'OrganizationChanged', payload, new Date());
}

export function accountCreated(organizationId: string, uuid: string, code: string, companyName: string): EventEnvelope {
  const payload = accountEventsV1.AccountChanged.encode(
    accountEventsV1.AccountChanged.fromPartial({
      account: { uuid, code, company_name: companyName, legal_country: 'DK' },
    }),
  ).finish();
  return envelope(
    organizationId,
    'account.created',
    { type: 'account', id: uuid },
    'AccountChanged',
    payload,
    new Date(),
  );
}

export function planCreated(
  organizationId: string,
  plan: string,
  name: string,
  terms: Array<{ uuid: string; code: string; currency?: string }>,
): EventEnvelope {
  const payload = catalogEventsV1.PlanChanged.encode(
    catalogEventsV1.PlanChanged.fromPartial({
      plan: {
        uuid: plan,
        name,
        code: name.toLowerCase(),
        planterms: terms.map((t) => ({
          uuid: t.uuid,
          plan,
          code: t.code,
          interval_type: 'month',
          interval_count: 1,
          price: '100.00',
          currency: t.currency ?? 'DKK',
          active: true,
        })),
      },
    }),
  ).finish();
  return envelope(organizationId, 'plan.created', { type: 'plan', id: plan }, 'PlanChanged', payload, new Date());
}

export interface PricingInput {
  terms: string;
  plan: string;
  status: string;
  quantity: number;
  unit_price: string;
  currency?: string;
  /** Default: unit_price × quantity. */
  mrr?: string;
}

const pricing = (p: PricingInput): subscriptionEventsV1.SubscriptionPricing => {
  const mrr = p.mrr ?? (Number(p.unit_price) * p.quantity).toString();
  return {
    terms: p.terms,
    plan: p.plan,
    status: p.status,
    quantity: p.quantity,
    currency: p.currency ?? 'DKK',
    interval_type: 'month',
    interval_count: 1,
    unit_price: p.unit_price,
    discounted_unit_price: p.unit_price,
    mrr,
  };
};

export interface ChangeInput {
  organizationId: string;
  subscription: string;
  account: string;
  change: string;
  at: string;
  version: number;
  status: string;
  old: PricingInput | null;
  new: PricingInput;
  scheduled?: PricingInput;
  scheduledAt?: string;
  cancelAt?: string;
  startDate?: string;
  changeType?: string;
  cancellationType?: string;
  customChurnReason?: string;
  /** The churn reason's uuid. */
  churnReason?: string;
  /** The envelope's occurred_at (when the change was made); default `at`. */
  occurredAt?: string;
}

/** subscriptions.subscription.changed with the subscription's state after the change. */
export function subscriptionChanged(input: ChangeInput): EventEnvelope {
  const at = new Date(input.at);
  const payload = subscriptionEventsV1.SubscriptionChanged.encode(
    subscriptionEventsV1.SubscriptionChanged.fromPartial({
      subscription: {
        uuid: input.subscription,
        account: input.account,
        start_date: new Date(input.startDate ?? '2026-01-15T09:00:00Z'),
        original_start_date: new Date(input.startDate ?? '2026-01-15T09:00:00Z'),
        created_date: new Date('2026-01-15T09:00:00Z'),
        last_modified_date: at,
        quantity: input.new.quantity,
        collection_method: 'invoice',
        status: input.status,
        version: input.version,
        ...(input.cancelAt ? { cancel_at: new Date(input.cancelAt), cancellation_type: 'at_renewal' } : {}),
        ...(input.customChurnReason ? { custom_churn_reason: input.customChurnReason } : {}),
        ...(input.churnReason ? { churn_reason: input.churnReason } : {}),
        scheduled_changes: input.scheduledAt
          ? [
              {
                uuid: randomUUID(),
                date: new Date(input.scheduledAt),
                terms: input.scheduled!.terms,
                quantity: input.scheduled!.quantity,
                change_type: 'at_renewal',
              },
            ]
          : [],
      },
      change: input.change,
      old_pricing: input.old ? pricing(input.old) : undefined,
      new_pricing: pricing(input.new),
      scheduled_pricing: input.scheduled ? pricing(input.scheduled) : undefined,
      effective_at: at,
      change_type: input.changeType ?? '',
      cancellation_type: input.cancellationType ?? '',
    }),
  ).finish();
  return envelope(
    input.organizationId,
    'subscription.changed',
    { type: 'subscription', id: input.subscription },
    'SubscriptionChanged',
    payload,
    input.occurredAt ? new Date(input.occurredAt) : at,
  );
}

/** accounts.churn_reason.created / .updated: the reason's state after the change. */
export function churnReasonChanged(
  organizationId: string,
  uuid: string,
  name: string,
  eventType: 'churn_reason.created' | 'churn_reason.updated' = 'churn_reason.created',
): EventEnvelope {
  const payload = accountEventsV1.ChurnReasonChanged.encode({
    churn_reason: { uuid, name, is_active: true, deleted: false },
  }).finish();
  return envelope(
    organizationId,
    eventType,
    { type: 'churn_reason', id: uuid },
    'ChurnReasonChanged',
    payload,
    new Date(),
  );
}

/** invoicing.invoice.issued of an invoice with one line of `subscription`. */
export function invoiceIssued(
  organizationId: string,
  invoice: { uuid: string; account: string; subscription: string },
  at: string,
): EventEnvelope {
  return invoiceChanged('invoice.issued', organizationId, invoice, at);
}

/** invoicing.invoice.<eventType> of an invoice with one line of `subscription` (none: a line without). */
export function invoiceChanged(
  eventType: string,
  organizationId: string,
  invoice: { uuid: string; account: string; subscription: string | null },
  at: string,
): EventEnvelope {
  const payload = invoiceEventsV1.InvoiceChanged.encode(
    invoiceEventsV1.InvoiceChanged.fromPartial({
      invoice: {
        uuid: invoice.uuid,
        account: invoice.account,
        lines: [invoice.subscription ? { subscription: invoice.subscription } : {}],
      },
    }),
  ).finish();
  return envelope(
    organizationId,
    eventType,
    { type: 'invoice', id: invoice.uuid },
    'InvoiceChanged',
    payload,
    new Date(at),
  );
}

/** payments.payment.succeeded of the invoice's first attempt, completed at `at`. */
export function paymentSucceeded(
  organizationId: string,
  invoice: { uuid: string; account: string },
  at: string,
): EventEnvelope {
  const payload = paymentEventsV1.PaymentAttemptChanged.encode(
    paymentEventsV1.PaymentAttemptChanged.fromPartial({
      attempt: {
        uuid: randomUUID(),
        invoice: invoice.uuid,
        account: invoice.account,
        amount: '125.000000',
        currency: 'DKK',
        number: 1,
        outcome: 'succeeded',
        attempted_at: new Date(at),
        completed_at: new Date(at),
      },
      invoice_number: '1',
    }),
  ).finish();
  return envelope(
    organizationId,
    'payment.succeeded',
    { type: 'invoice', id: invoice.uuid },
    'PaymentAttemptChanged',
    payload,
    new Date(at),
  );
}
