import { randomUUID } from 'node:crypto';
import { countAfterCommit, inTransaction } from '@billing/db';
import { chargeAttemptsTotal, type RequestContext } from '@billing/observability';
import { CollectedChangeRecords } from '@billing/runtime';
import type { EntityManager } from '@mikro-orm/postgresql';
import { paymentAttemptView } from '../../db/attempt-view.js';
import {
  activeCardsOf,
  type DueInvoice,
  insertAttempts,
  lockAttempts,
  lockDueInvoices,
  markNoCard,
  pendingAttempts,
  type StoredOutcome,
  storeOutcomes,
} from '../../db/charge-store.js';
import type { PaymentAttemptRow } from '../../db/entities/payment-attempt.entity.js';
import { toMinorUnits } from '../../domain/amounts.js';
import type { OrganizationFacts } from '../../domain/directory.js';
import { nextAttemptAt } from '../../domain/dunning.js';
import type { ChargeResult } from '../../domain/payment-attempt.js';
import { chargeableCard } from '../../domain/payment-card.js';
import { publishPaymentEvent } from '../../events/payment-events.js';
import type { PaymentsDeps } from '../deps.js';
import { gatewayFor } from '../gateway-for.js';
import { settleAttempts } from './settle.js';

/** What running an invoice's due attempt came to. */
export type AttemptRun = 'succeeded' | 'declined' | 'no_card' | 'not_due' | 'gateway_error';

export const systemContext = (organizationId: string): RequestContext => ({
  organizationId,
  requestId: randomUUID(),
  clientSystem: 'payments',
});

/** An organization's facts by id; a lookup made by organizationLookup asks for each once. */
export type OrganizationLookup = (organizationId: string) => Promise<OrganizationFacts>;

/**
 * Asks the accounts service for each organization once, however many of a batch's invoices are
 * its: the consumer's take-in, the outcomes (dunning schedule) and the settlements (time zone of
 * the paid date) of one batch share the answer instead of asking again at each step.
 */
export function organizationLookup(deps: PaymentsDeps): OrganizationLookup {
  const organizations = new Map<string, Promise<OrganizationFacts>>();
  return (organizationId) => {
    let facts = organizations.get(organizationId);
    if (!facts) {
      facts = deps.directory.organization(systemContext(organizationId));
      organizations.set(organizationId, facts);
    }
    return facts;
  };
}

/** Bounds the gateway calls in flight (the Charger's concurrency); none: unbounded. */
export type CallSlots = <T>(call: () => Promise<T>) => Promise<T>;

interface Prepared {
  /** The moment the attempt is made at (organization's clock). */
  now: Date;
  attempt: PaymentAttemptRow;
  card: { gatewayId: string; gatewayCustomer: string | null };
  invoiceNumber: string;
}

/**
 * Runs the due attempts of a batch of invoices, each at its own moment (organization's clock), in
 * three steps:
 * 1. one transaction writes their attempts (outcome pending; an attempt's id is its idempotency
 *    key) and commits them, or finds the pending attempts crashed runs left and reuses them;
 * 2. the gateway is called for each, outside any transaction;
 * 3. one transaction stores the outcomes, moves the invoices on (paid; retry on the dunning
 *    schedule; left open), writes their mails and publishes payment.succeeded or .declined.
 * A crash between 2 and 3 leaves the attempts pending and the invoices due: the next run calls the
 * gateway with the same keys, which answers with the first charges, so each invoice is charged
 * once and the outcome is stored then. A gateway that cannot be reached leaves its attempt the
 * same way. Invoices another transaction holds are left to it ('not_due').
 */
export async function runDueAttempts(
  deps: PaymentsDeps,
  jobs: ReadonlyArray<{ invoiceId: string; now: Date }>,
  slots: CallSlots = (call) => call(),
  organization: OrganizationLookup = organizationLookup(deps),
): Promise<Map<string, AttemptRun>> {
  const runs = new Map<string, AttemptRun>(jobs.map((job) => [job.invoiceId, 'not_due']));
  if (jobs.length === 0) return runs;
  const prepared = await inTransaction(deps.orm, (em) => prepareAttempts(deps, em, jobs, runs));
  const results = await Promise.all(
    prepared.map(async (job) => ({ job, result: await slots(() => callGateway(deps, job)) })),
  );
  const answered = results.filter((entry): entry is { job: Prepared; result: ChargeResult } => {
    if (entry.result !== null) return true;
    runs.set(entry.job.attempt.invoice_id, 'gateway_error');
    return false;
  });
  if (answered.length === 0) return runs;
  deps.afterGatewayCall?.();
  const recorded = await inTransaction(deps.orm, (em) => recordOutcomes(em, answered, organization));
  for (const attempt of recorded) runs.set(attempt.invoice_id, attempt.outcome as AttemptRun);
  await settleAttempts(
    deps,
    recorded.filter((attempt) => attempt.outcome === 'succeeded'),
    organization,
  );
  return runs;
}

/** The gateway's answer, or null when it could not be reached (the attempt stays pending). */
async function callGateway(deps: PaymentsDeps, { attempt, card, invoiceNumber }: Prepared) {
  try {
    const adapter = await gatewayFor(deps, systemContext(attempt.organization_id), attempt.gateway);
    return await adapter.charge({
      idempotencyKey: attempt.id,
      amountMinor: toMinorUnits(attempt.amount, attempt.currency),
      currency: attempt.currency,
      card,
      description: `Invoice ${invoiceNumber}`,
    });
  } catch (error) {
    chargeAttemptsTotal.inc({ outcome: 'gateway_error' });
    deps.logger.warn(
      { err: error, invoice: attempt.invoice_id, attempt: attempt.id },
      'gateway call failed; the attempt is retried with its key',
    );
    return null;
  }
}

async function prepareAttempts(
  deps: PaymentsDeps,
  em: EntityManager,
  jobs: ReadonlyArray<{ invoiceId: string; now: Date }>,
  runs: Map<string, AttemptRun>,
): Promise<Prepared[]> {
  const due = await lockDueInvoices(em, jobs);
  const pending = await pendingAttempts(
    em,
    due.flatMap((job) =>
      job.pending_attempt_id ? [{ organization_id: job.organization_id, id: job.pending_attempt_id }] : [],
    ),
  );
  const prepared: Prepared[] = pending.map(({ attempt, card }) => {
    const job = due.find((invoice) => invoice.invoice_id === attempt.invoice_id)!;
    return {
      now: job.at,
      attempt,
      card: { gatewayId: card.gateway_id, gatewayCustomer: card.gateway_customer },
      invoiceNumber: job.invoice_number,
    };
  });
  const fresh = due.filter((job) => !job.pending_attempt_id);
  const cards = await activeCardsOf(em, fresh);
  const cardsOf = new Map<string, typeof cards>();
  for (const card of cards) {
    const key = `${card.organization_id}/${card.account_id}`;
    cardsOf.set(key, [...(cardsOf.get(key) ?? []), card]);
  }
  const noCard: DueInvoice[] = [];
  const attempts: PaymentAttemptRow[] = [];
  for (const job of fresh) {
    const card = chargeableCard(
      (cardsOf.get(`${job.organization_id}/${job.account_id}`) ?? []).map((row) => ({
        ...row,
        uuid: row.id,
        created_date: row.created_at,
      })),
    );
    if (!card) {
      noCard.push(job);
      continue;
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
      attempted_at: job.at,
      completed_at: null,
      settled_at: null,
    };
    attempts.push(attempt);
    prepared.push({
      now: job.at,
      attempt,
      card: { gatewayId: card.gateway_id, gatewayCustomer: card.gateway_customer ?? null },
      invoiceNumber: job.invoice_number,
    });
  }
  await markNoCard(em, noCard);
  for (const job of noCard) {
    runs.set(job.invoice_id, 'no_card');
    deps.logger.warn(
      { organization_id: job.organization_id, invoice: job.invoice_id, account: job.account_id },
      'card invoice left open: the account has no active payment card',
    );
  }
  await insertAttempts(em, attempts);
  return prepared;
}

async function recordOutcomes(
  em: EntityManager,
  answered: ReadonlyArray<{ job: Prepared; result: ChargeResult }>,
  organization: OrganizationLookup,
): Promise<PaymentAttemptRow[]> {
  const resultOf = new Map(answered.map(({ job, result }) => [job.attempt.id, { result, now: job.now }]));
  const locked = await lockAttempts(
    em,
    answered.map(({ job }) => ({ organization_id: job.attempt.organization_id, id: job.attempt.id })),
  );
  const recorded: PaymentAttemptRow[] = [];
  const outcomes: StoredOutcome[] = [];
  // The batch's audit rows and events, written with one insert each after its outcomes.
  const records = new CollectedChangeRecords('payments');
  for (const { attempt: stored, card, invoice } of locked) {
    // Another run of the same attempt stored it first: the gateway answered it the same (same key).
    if (stored.outcome !== 'pending') {
      recorded.push(stored);
      continue;
    }
    const { result, now } = resultOf.get(stored.id)!;
    const attempt: PaymentAttemptRow = {
      ...stored,
      outcome: result.outcome,
      gateway_reference: result.reference,
      decline_reason: result.outcome === 'declined' ? result.reason : '',
      completed_at: now,
    };
    const next =
      result.outcome === 'declined'
        ? nextAttemptAt(
            invoice.first_attempt_at ?? attempt.attempted_at,
            attempt.number,
            (await organization(attempt.organization_id)).dunningDays,
          )
        : null;
    const payment = {
      invoice_number: invoice.invoice_number,
      amount: attempt.amount,
      currency: attempt.currency,
      brand: card.brand,
      last4: card.last4,
    };
    // The confirmation to receive_payment_confirmation, a decline to receive_payment_card_notifications.
    outcomes.push({
      attempt,
      invoice: { status: result.outcome === 'succeeded' ? 'paid' : next ? 'pending' : 'failed', next_attempt_at: next },
      mail: {
        id: randomUUID(),
        facts:
          result.outcome === 'succeeded'
            ? { kind: 'payment_confirmation', ...payment, paid_at: now.toISOString() }
            : {
                kind: 'payment_declined',
                ...payment,
                attempted_at: attempt.attempted_at.toISOString(),
                next_attempt_at: next?.toISOString() ?? null,
              },
      },
    });
    const scope = records.scope(em, attempt.organization_id, systemContext(attempt.organization_id), now);
    scope.audit(`payment.${result.outcome}`, 'invoice', attempt.invoice_id, {
      attempt: attempt.id,
      number: attempt.number,
    });
    publishPaymentEvent(
      scope,
      result.outcome === 'succeeded' ? 'payment.succeeded' : 'payment.declined',
      paymentAttemptView(attempt),
      { retryScheduled: next !== null, invoiceNumber: invoice.invoice_number },
    );
    recorded.push(attempt);
    // Only the run that stored the outcome counts it (above: another run's is not counted again).
    countAfterCommit(em, `charge_${result.outcome}`, 1, (total) =>
      chargeAttemptsTotal.inc({ outcome: result.outcome }, total),
    );
  }
  await storeOutcomes(em, outcomes);
  await records.write(em);
  return recorded;
}
