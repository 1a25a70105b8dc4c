import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentMailFacts } from '../domain/payment-mail.js';
import type { PaymentAttemptRow } from './entities/payment-attempt.entity.js';

/**
 * The statements of the charging path (use-cases/charging/run-attempt, settle) as plain SQL in
 * the caller's transaction: every charge runs them, and written through the unit of work they
 * cost several times their own time in entity bookkeeping (bench:charges). Rows come back with
 * the entities' column names and types (numeric as exact strings, timestamptz as Date: the
 * connection hands timestamps over as text, which the ORM would otherwise turn into dates).
 */

const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
const asDateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : asDate(value));

/** An attempt row as the entity types it. */
function attemptRow(row: PaymentAttemptRow): PaymentAttemptRow {
  return {
    ...row,
    number: Number(row.number),
    attempted_at: asDate(row.attempted_at),
    completed_at: asDateOrNull(row.completed_at),
    settled_at: asDateOrNull(row.settled_at),
  };
}

/** An invoice whose attempt is due, as prepareAttempt needs it. */
export interface DueInvoice {
  invoice_id: string;
  organization_id: string;
  account_id: string;
  invoice_number: string;
  amount: string;
  currency: string;
  first_attempt_at: Date | null;
  attempts_made: number;
}

/** The invoice's row when its attempt is due at `now`, locked until the transaction ends. */
export async function lockDueInvoice(em: EntityManager, invoiceId: string, now: Date): Promise<DueInvoice | null> {
  const rows = await em.execute<DueInvoice[]>(
    `select invoice_id, organization_id, account_id, invoice_number, amount, currency, first_attempt_at, attempts_made
       from invoice_payment where invoice_id = ? and status = 'pending' and next_attempt_at <= ? for update`,
    [invoiceId, now],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row, attempts_made: Number(row.attempts_made), first_attempt_at: asDateOrNull(row.first_attempt_at) };
}

/** The card an attempt charges, as the gateway knows it. */
export interface AttemptCard {
  gateway_id: string;
  gateway_customer: string | null;
}

/** The invoice's pending attempt (a run that crashed after writing it) with its card, or null. */
export async function pendingAttemptOf(
  em: EntityManager,
  invoiceId: string,
): Promise<{ attempt: PaymentAttemptRow; card: AttemptCard } | null> {
  const rows = await em.execute<
    Array<PaymentAttemptRow & { card_gateway_id: string; card_gateway_customer: string | null }>
  >(
    `select a.*, c.gateway_id as card_gateway_id, c.gateway_customer as card_gateway_customer
       from payment_attempt a join payment_card c on c.id = a.card_id
      where a.invoice_id = ? and a.outcome = 'pending'`,
    [invoiceId],
  );
  const row = rows[0];
  if (!row) return null;
  const { card_gateway_id, card_gateway_customer, ...attempt } = row;
  return {
    attempt: attemptRow(attempt),
    card: { gateway_id: card_gateway_id, gateway_customer: card_gateway_customer },
  };
}

export interface ActiveCard {
  id: string;
  gateway: string;
  gateway_id: string;
  gateway_customer: string | null;
  created_at: Date;
  active: boolean;
}

/** The account's active cards (chargeableCard picks the one to charge). */
export async function activeCardsOf(
  em: EntityManager,
  organizationId: string,
  accountId: string,
): Promise<ActiveCard[]> {
  const rows = await em.execute<ActiveCard[]>(
    `select id, gateway, gateway_id, gateway_customer, created_at, active from payment_card
      where organization_id = ? and account_id = ? and active`,
    [organizationId, accountId],
  );
  return rows.map((row) => ({ ...row, created_at: asDate(row.created_at) }));
}

export async function markNoCard(em: EntityManager, invoiceId: string, now: Date): Promise<void> {
  await em.execute(
    `update invoice_payment set status = 'no_card', next_attempt_at = null, updated_at = ? where invoice_id = ?`,
    [now, invoiceId],
  );
}

/** Writes a new attempt (outcome pending) and dates the invoice's first attempt when it is the first. */
export async function insertAttempt(em: EntityManager, attempt: PaymentAttemptRow): Promise<void> {
  await em.execute(
    `insert into payment_attempt (id, organization_id, invoice_id, account_id, card_id, gateway, amount, currency,
       number, outcome, gateway_reference, decline_reason, attempted_at, completed_at, settled_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      attempt.id,
      attempt.organization_id,
      attempt.invoice_id,
      attempt.account_id,
      attempt.card_id,
      attempt.gateway,
      attempt.amount,
      attempt.currency,
      attempt.number,
      attempt.outcome,
      attempt.gateway_reference,
      attempt.decline_reason,
      attempt.attempted_at,
      attempt.completed_at ?? null,
      attempt.settled_at ?? null,
    ],
  );
  await em.execute(
    `update invoice_payment set first_attempt_at = coalesce(first_attempt_at, ?), updated_at = ? where invoice_id = ?`,
    [attempt.attempted_at, attempt.attempted_at, attempt.invoice_id],
  );
}

/** The attempt with its card's brand and last four digits, locked until the transaction ends. */
export async function lockAttempt(
  em: EntityManager,
  attemptId: string,
): Promise<{ attempt: PaymentAttemptRow; card: { brand: string; last4: string } } | null> {
  const rows = await em.execute<Array<PaymentAttemptRow & { card_brand: string; card_last4: string }>>(
    `select a.*, c.brand as card_brand, c.last4 as card_last4
       from payment_attempt a join payment_card c on c.id = a.card_id where a.id = ? for update of a`,
    [attemptId],
  );
  const row = rows[0];
  if (!row) return null;
  const { card_brand, card_last4, ...attempt } = row;
  return { attempt: attemptRow(attempt), card: { brand: card_brand, last4: card_last4 } };
}

/** The invoice's payment row, locked: its dunning state. */
export async function lockInvoicePayment(
  em: EntityManager,
  invoiceId: string,
): Promise<{ invoice_number: string; first_attempt_at: Date | null }> {
  const rows = await em.execute<Array<{ invoice_number: string; first_attempt_at: Date | null }>>(
    `select invoice_number, first_attempt_at from invoice_payment where invoice_id = ? for update`,
    [invoiceId],
  );
  const row = rows[0];
  if (!row) throw new Error(`invoice_payment ${invoiceId} is missing`);
  return { invoice_number: row.invoice_number, first_attempt_at: asDateOrNull(row.first_attempt_at) };
}

export async function storeOutcome(
  em: EntityManager,
  attempt: Pick<PaymentAttemptRow, 'id' | 'outcome' | 'gateway_reference' | 'decline_reason' | 'completed_at'>,
): Promise<void> {
  await em.execute(
    `update payment_attempt set outcome = ?, gateway_reference = ?, decline_reason = ?, completed_at = ? where id = ?`,
    [attempt.outcome, attempt.gateway_reference, attempt.decline_reason, attempt.completed_at ?? null, attempt.id],
  );
}

export async function moveInvoicePayment(
  em: EntityManager,
  invoiceId: string,
  state: { status: string; next_attempt_at: Date | null; attempts_made: number; updated_at: Date },
): Promise<void> {
  await em.execute(
    `update invoice_payment set status = ?, next_attempt_at = ?, attempts_made = ?, updated_at = ? where invoice_id = ?`,
    [state.status, state.next_attempt_at, state.attempts_made, state.updated_at, invoiceId],
  );
}

/** A payment mail (db/entities/payment-mail.entity) written in the caller's transaction. */
export async function insertPaymentMail(
  em: EntityManager,
  mail: {
    id: string;
    organizationId: string;
    accountId: string;
    subjectId: string;
    facts: PaymentMailFacts;
    now: Date;
  },
): Promise<void> {
  await em.execute(
    `insert into payment_mail (id, organization_id, account_id, kind, subject_id, facts, attempts, last_error, sent_to,
       sent_at, created_at) values (?, ?, ?, ?, ?, ?::jsonb, 0, null, null, null, ?)`,
    [
      mail.id,
      mail.organizationId,
      mail.accountId,
      mail.facts.kind,
      mail.subjectId,
      JSON.stringify(mail.facts),
      mail.now,
    ],
  );
}

/** A succeeded attempt not settled with invoicing yet, or null. */
export async function unsettledAttempt(
  em: EntityManager,
  attemptId: string,
): Promise<Pick<PaymentAttemptRow, 'id' | 'organization_id' | 'invoice_id' | 'attempted_at' | 'completed_at'> | null> {
  const rows = await em.execute<
    Array<Pick<PaymentAttemptRow, 'id' | 'organization_id' | 'invoice_id' | 'attempted_at' | 'completed_at'>>
  >(
    `select id, organization_id, invoice_id, attempted_at, completed_at from payment_attempt
      where id = ? and outcome = 'succeeded' and settled_at is null`,
    [attemptId],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row, attempted_at: asDate(row.attempted_at), completed_at: asDateOrNull(row.completed_at) };
}

export async function markSettled(em: EntityManager, attemptId: string, now: Date): Promise<void> {
  await em.execute(`update payment_attempt set settled_at = ? where id = ? and settled_at is null`, [now, attemptId]);
}
