import { Counter } from 'prom-client';
import { metricsRegistry } from './registry.js';

/**
 * What the platform did for its customers. Each is counted once its transaction has committed
 * (afterCommit / addAfterCommit in @billing/db), so a rolled back or retried transaction never counts.
 */

/** Renewals into a new period, by the subscription engine (scheduler, test clock or a change's catch-up). */
export const subscriptionsRenewedTotal = new Counter({
  name: 'billing_subscriptions_renewed_total',
  help: 'Subscription renewals into a new period, counted when committed.',
  registers: [metricsRegistry],
});

/** Invoices and credit notes given their number. */
export const invoicesIssuedTotal = new Counter({
  name: 'billing_invoices_issued_total',
  help: 'Invoices and credit notes issued (numbered), counted when committed.',
  registers: [metricsRegistry],
});

/**
 * Card charges sent to a payment gateway, by outcome: `succeeded`, `declined` (counted when the
 * outcome is committed), `gateway_error` (no answer; the attempt is retried with the same key).
 * Attempted = the sum; failed = everything but `succeeded`.
 */
export const chargeAttemptsTotal = new Counter({
  name: 'billing_charge_attempts_total',
  help: 'Card charges sent to a payment gateway, by outcome (succeeded, declined, gateway_error).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * Webhook delivery attempts, by what they left: `succeeded` (2xx), `retrying` (another attempt is
 * scheduled), `failed` (the retry schedule is used up).
 */
export const webhookDeliveriesTotal = new Counter({
  name: 'billing_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (succeeded, retrying, failed), counted when recorded.',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
