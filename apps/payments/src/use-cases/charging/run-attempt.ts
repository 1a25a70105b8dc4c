import { randomUUID } from 'node:crypto';
import { inTransaction } from '@billing/db';
import type { RequestContext } from '@billing/observability';
import { changeScope } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { paymentAttemptView } from '../../db/attempt-view.js';
import {
  activeCardsOf,
  insertAttempt,
  lockAttempt,
  lockDueInvoice,
  lockInvoicePayment,
  markNoCard,
  moveInvoicePayment,
  pendingAttemptOf,
  storeOutcome,
} from '../../db/charge-store.js';
import type { PaymentAttemptRow } from '../../db/entities/payment-attempt.entity.js';
import { toMinorUnits } from '../../domain/amounts.js';
import { nextAttemptAt } from '../../domain/dunning.js';
import type { ChargeResult } from '../../domain/payment-attempt.js';
import { chargeableCard } from '../../domain/payment-card.js';
import { publishPaymentEvent } from '../../events/payment-events.js';
import type { PaymentsDeps } from '../deps.js';
import { gatewayFor } from '../gateway-for.js';
import { queuePaymentMail } from '../mail/queue-payment-mail.js';
import { settleAttempt } from './settle.js';

/** What running an invoice's due attempt came to. */
export type AttemptRun = 'succeeded' | 'declined' | 'no_card' | 'not_due' | 'gateway_error';

export const systemContext = (organizationId: string): RequestContext => ({
  organizationId,
  requestId: randomUUID(),
  clientSystem: 'payments',
});

/**
 * Runs the due attempt of one invoice at `now` (organization's clock), in three steps:
 * 1. one transaction writes the attempt (outcome pending; its id is the idempotency key) and
 *    commits it, or finds the pending attempt a crashed run left and reuses it;
 * 2. the gateway is called, outside any transaction;
 * 3. one transaction stores the outcome, moves the invoice on (paid; retry on the dunning
 *    schedule; left open) and publishes payment.succeeded or payment.declined.
 * A crash between 2 and 3 leaves the attempt pending and the invoice due: the next run calls the
 * gateway with the same key, which answers with the first charge, so the invoice is charged once
 * and the outcome is stored then. A gateway that cannot be reached leaves it the same way.
 */
export async function runDueAttempt(deps: PaymentsDeps, invoiceId: string, now: Date): Promise<AttemptRun> {
  const prepared = await inTransaction(deps.orm, (em) => prepareAttempt(deps, em, invoiceId, now));
  if (prepared === 'not_due' || prepared === 'no_card') return prepared;
  const { attempt, card } = prepared;
  const context = systemContext(attempt.organization_id);
  let result: ChargeResult;
  try {
    const adapter = await gatewayFor(deps, context, attempt.gateway);
    result = await adapter.charge({
      idempotencyKey: attempt.id,
      amountMinor: toMinorUnits(attempt.amount, attempt.currency),
      currency: attempt.currency,
      card,
      description: `Invoice ${prepared.invoiceNumber}`,
    });
  } catch (error) {
    deps.logger.warn(
      { err: error, invoice: invoiceId, attempt: attempt.id },
      'gateway call failed; the attempt is retried with its key',
    );
    return 'gateway_error';
  }
  deps.afterGatewayCall?.();
  const outcome = await inTransaction(deps.orm, (em) => recordOutcome(deps, em, attempt.id, result, now));
  if (outcome === 'succeeded') await settleAttempt(deps, attempt.id);
  return outcome;
}

type Prepared =
  | 'not_due'
  | 'no_card'
  | { attempt: PaymentAttemptRow; card: { gatewayId: string; gatewayCustomer: string | null }; invoiceNumber: string };

async function prepareAttempt(deps: PaymentsDeps, em: EntityManager, invoiceId: string, now: Date): Promise<Prepared> {
  const job = await lockDueInvoice(em, invoiceId, now);
  if (!job) return 'not_due';
  const pending = await pendingAttemptOf(em, invoiceId);
  if (pending) {
    return {
      attempt: pending.attempt,
      card: { gatewayId: pending.card.gateway_id, gatewayCustomer: pending.card.gateway_customer },
      invoiceNumber: job.invoice_number,
    };
  }
  const cards = await activeCardsOf(em, job.organization_id, job.account_id);
  const card = chargeableCard(cards.map((row) => ({ ...row, uuid: row.id, created_date: row.created_at })));
  if (!card) {
    await markNoCard(em, job.invoice_id, now);
    deps.logger.warn(
      { organization_id: job.organization_id, invoice: job.invoice_id, account: job.account_id },
      'card invoice left open: the account has no active payment card',
    );
    return 'no_card';
  }
  const attempt: PaymentAttemptRow = {
    id: randomUUID(),
    organization_id: job.organization_id,
    invoice_id: job.invoice_id,
    account_id: job.account_id,
    card_id: card.id,
    gateway: card.gateway,
    amount: job.amount,
    currency: job.currency,
    number: job.attempts_made + 1,
    outcome: 'pending',
    gateway_reference: '',
    decline_reason: '',
    attempted_at: now,
    completed_at: null,
    settled_at: null,
  };
  await insertAttempt(em, attempt);
  return {
    attempt,
    card: { gatewayId: card.gateway_id, gatewayCustomer: card.gateway_customer ?? null },
    invoiceNumber: job.invoice_number,
  };
}

async function recordOutcome(
  deps: PaymentsDeps,
  em: EntityManager,
  attemptId: string,
  result: ChargeResult,
  now: Date,
): Promise<'succeeded' | 'declined'> {
  const locked = await lockAttempt(em, attemptId);
  if (!locked) throw new Error(`payment attempt ${attemptId} is missing`);
  const { attempt: stored, card } = locked;
  // Another run of the same attempt stored it first: the gateway answered it the same (same key).
  if (stored.outcome !== 'pending') return stored.outcome as 'succeeded' | 'declined';
  const job = await lockInvoicePayment(em, stored.invoice_id);
  const attempt: PaymentAttemptRow = {
    ...stored,
    outcome: result.outcome,
    gateway_reference: result.reference,
    decline_reason: result.outcome === 'declined' ? result.reason : '',
    completed_at: now,
  };
  await storeOutcome(em, attempt);
  const scope = changeScope(em, 'payments', attempt.organization_id, systemContext(attempt.organization_id), now);
  let next: Date | null = null;
  if (result.outcome === 'succeeded') {
    await moveInvoicePayment(em, attempt.invoice_id, {
      status: 'paid',
      next_attempt_at: null,
      attempts_made: attempt.number,
      updated_at: now,
    });
  } else {
    const organization = await deps.directory.organization(systemContext(attempt.organization_id));
    next = nextAttemptAt(job.first_attempt_at ?? attempt.attempted_at, attempt.number, organization.dunningDays);
    await moveInvoicePayment(em, attempt.invoice_id, {
      status: next ? 'pending' : 'failed',
      next_attempt_at: next,
      attempts_made: attempt.number,
      updated_at: now,
    });
  }
  const payment = {
    invoice_number: job.invoice_number,
    amount: attempt.amount,
    currency: attempt.currency,
    brand: card.brand,
    last4: card.last4,
  };
  // The confirmation to receive_payment_confirmation, a decline to receive_payment_card_notifications.
  await queuePaymentMail(em, {
    organizationId: attempt.organization_id,
    accountId: attempt.account_id,
    subjectId: attempt.id,
    facts:
      result.outcome === 'succeeded'
        ? { kind: 'payment_confirmation', ...payment, paid_at: now.toISOString() }
        : {
            kind: 'payment_declined',
            ...payment,
            attempted_at: attempt.attempted_at.toISOString(),
            next_attempt_at: next?.toISOString() ?? null,
          },
    now,
  });
  scope.audit(`payment.${result.outcome}`, 'invoice', attempt.invoice_id, {
    attempt: attempt.id,
    number: attempt.number,
  });
  publishPaymentEvent(
    scope,
    result.outcome === 'succeeded' ? 'payment.succeeded' : 'payment.declined',
    paymentAttemptView(attempt),
    { retryScheduled: next !== null, invoiceNumber: job.invoice_number },
  );
  return result.outcome;
}
