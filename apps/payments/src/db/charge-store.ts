import { pgArray } from '@billing/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentMailFacts } from '../domain/payment-mail.js';
import type { InvoicePaymentRow } from './entities/invoice-payment.entity.js';
import type { PaymentAttemptRow } from './entities/payment-attempt.entity.js';

/**
 * The statements of the charging path (use-cases/charging/run-attempt, settle) as plain SQL in
 * the caller's transaction, each for a whole batch of invoices at once (rows to insert passed as
 * one JSON parameter, rows to find as arrays): a charge then costs a share of a few statements instead of a dozen round trips with
 * entity bookkeeping (bench:charges). Rows come back with the entities' column names and types
 * (numeric as exact strings; timestamps, which the connection hands over as text, as Date).
 *
 * Keys of rows to find are passed as typed arrays (pgArray) and joined as `unnest(...)`: the
 * planner then knows the batch's size and, with or without statistics (autovacuum is off in
 * places), looks each key up in its primary key (a nested loop) instead of scanning the table.
 * For a consumer's full batch (500 keys) that no longer holds without statistics: a hash of a
 * sequential scan of every waiting invoice looks cheaper than 500 lookups. So a select looks each
 * key up by a lateral subquery the planner cannot flatten (`offset 0`), and an update finds its
 * rows by `key = any(array(select … from the keys))`, whose size the planner cannot see (it counts
 * ten), so it is always a primary-key lookup. Statements that find rows by id also name the
 * organization the row belongs to (tenancy); that is a filter on the row the key found, not
 * another way in.
 */

const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
const asDateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : asDate(value));

function attemptRow(row: PaymentAttemptRow): PaymentAttemptRow {
  return {
    ...row,
    number: Number(row.number),
    attempted_at: asDate(row.attempted_at),
    completed_at: asDateOrNull(row.completed_at),
    settled_at: asDateOrNull(row.settled_at),
  };
}

/** An invoice whose attempt is due, locked for its run. */
export interface DueInvoice {
  invoice_id: string;
  organization_id: string;
  account_id: string;
  invoice_number: string;
  amount: string;
  currency: string;
  attempts_made: number;
  /** The moment its attempt is made at (organization's clock). */
  at: Date;
  /** The attempt a crashed run left pending, if any. */
  pending_attempt_id: string | null;
}

/**
 * Of `jobs` (invoice, moment of its attempt), the invoices whose attempt is due then, locked until
 * the transaction ends. Invoices another transaction holds are skipped: that one is running them.
 *
 * Each invoice is a primary-key lookup and its pending attempt a unique-key lookup, with or
 * without statistics. The pending attempt a crashed run left is looked up by its key (invoice,
 * number): it is always the invoice's next attempt (insertAttempts numbers it attempts_made + 1,
 * storeOutcomes moves attempts_made on to it). Both states are tested as `(…) is true`, a filter on
 * the row the key found, never an index condition: as one, the planner took the (status,
 * next_attempt_at) and (outcome, settled_at) indexes for 'pending' (a handful of rows, without
 * statistics; hardly any, with them) and read every 'pending' entry those indexes ever held, the
 * dead ones too (a row is pending once in its life, and nothing vacuums them here).
 */
export async function lockDueInvoices(
  em: EntityManager,
  jobs: ReadonlyArray<{ invoiceId: string; now: Date }>,
): Promise<DueInvoice[]> {
  const rows = await em.execute<DueInvoice[]>(
    `select ip.invoice_id, ip.organization_id, ip.account_id, ip.invoice_number, ip.amount, ip.currency,
       ip.attempts_made, j.at,
       (select a.id from payment_attempt a
         where a.invoice_id = ip.invoice_id and a.number = ip.attempts_made + 1 and (a.outcome = 'pending') is true)
         as pending_attempt_id
       from unnest(?::uuid[], ?::timestamptz[]) as j(invoice_id, at)
      cross join lateral (
        select * from invoice_payment ip
         where ip.invoice_id = j.invoice_id and (ip.status = 'pending') is true and (ip.next_attempt_at <= j.at) is true
        offset 0
        for update skip locked
      ) as ip
      order by ip.invoice_id`,
    [pgArray(jobs.map((job) => job.invoiceId)), pgArray(jobs.map((job) => job.now))],
  );
  return rows.map((row) => ({ ...row, attempts_made: Number(row.attempts_made), at: asDate(row.at) }));
}

/** The card an attempt charges, as the gateway knows it. */
export interface AttemptCard {
  gateway_id: string;
  gateway_customer: string | null;
}

/** Pending attempts (left by crashed runs) with their cards. */
export async function pendingAttempts(
  em: EntityManager,
  attempts: ReadonlyArray<{ organization_id: string; id: string }>,
): Promise<Array<{ attempt: PaymentAttemptRow; card: AttemptCard }>> {
  if (attempts.length === 0) return [];
  const rows = await em.execute<
    Array<PaymentAttemptRow & { card_gateway_id: string; card_gateway_customer: string | null }>
  >(
    `select a.*, c.gateway_id as card_gateway_id, c.gateway_customer as card_gateway_customer
       from unnest(?::uuid[], ?::uuid[]) as k(organization_id, id)
       join payment_attempt a on a.id = k.id and a.organization_id = k.organization_id
       join payment_card c on c.id = a.card_id`,
    [pgArray(attempts.map((attempt) => attempt.organization_id)), pgArray(attempts.map((attempt) => attempt.id))],
  );
  return rows.map(({ card_gateway_id, card_gateway_customer, ...attempt }) => ({
    attempt: attemptRow(attempt),
    card: { gateway_id: card_gateway_id, gateway_customer: card_gateway_customer },
  }));
}

export interface ActiveCard {
  id: string;
  organization_id: string;
  account_id: string;
  gateway: string;
  gateway_id: string;
  gateway_customer: string | null;
  created_at: Date;
  active: boolean;
}

/** The active cards of the accounts (chargeableCard picks the one to charge). */
export async function activeCardsOf(
  em: EntityManager,
  accounts: ReadonlyArray<{ organization_id: string; account_id: string }>,
): Promise<ActiveCard[]> {
  if (accounts.length === 0) return [];
  const rows = await em.execute<ActiveCard[]>(
    `select c.id, c.organization_id, c.account_id, c.gateway, c.gateway_id, c.gateway_customer, c.created_at, c.active
       from payment_card c
       join (select distinct organization_id, account_id
               from unnest(?::uuid[], ?::uuid[]) as r(organization_id, account_id)) r
         on r.organization_id = c.organization_id and r.account_id = c.account_id
      where c.active`,
    [
      pgArray(accounts.map((account) => account.organization_id)),
      pgArray(accounts.map((account) => account.account_id)),
    ],
  );
  return rows.map((row) => ({ ...row, created_at: asDate(row.created_at) }));
}

/** Leaves the invoices open without attempts: their accounts have no active card. */
export async function markNoCard(
  em: EntityManager,
  invoices: ReadonlyArray<{ organization_id: string; invoice_id: string; at: Date }>,
): Promise<void> {
  if (invoices.length === 0) return;
  await em.execute(
    `with r as materialized (
       select * from unnest(?::uuid[], ?::uuid[], ?::timestamptz[]) as r(organization_id, invoice_id, at)
     )
     update invoice_payment ip set status = 'no_card', next_attempt_at = null, updated_at = r.at
       from r
      where ip.invoice_id = any(array(select invoice_id from r))
        and ip.invoice_id = r.invoice_id and ip.organization_id = r.organization_id`,
    [
      pgArray(invoices.map((invoice) => invoice.organization_id)),
      pgArray(invoices.map((invoice) => invoice.invoice_id)),
      pgArray(invoices.map((invoice) => invoice.at)),
    ],
  );
}

/**
 * Takes card invoices in (one row each, first attempt due at next_attempt_at), in one statement;
 * an invoice already taken in is left as it is. Answers the invoices this statement took in.
 */
export async function insertInvoicePayments(
  em: EntityManager,
  rows: ReadonlyArray<Omit<InvoicePaymentRow, 'status' | 'first_attempt_at' | 'attempts_made'>>,
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await em.execute<{ invoice_id: string }[]>(
    `insert into invoice_payment (invoice_id, organization_id, account_id, invoice_number, amount, currency, status,
       test_clock, next_attempt_at, first_attempt_at, attempts_made, created_at, updated_at)
     select invoice_id, organization_id, account_id, invoice_number, amount, currency, 'pending', test_clock,
       next_attempt_at, null, 0, created_at, updated_at
       from jsonb_populate_recordset(null::invoice_payment, ?::jsonb)
     on conflict (invoice_id) do nothing
     returning invoice_id`,
    [JSON.stringify(rows)],
  );
  return new Set(inserted.map((row) => row.invoice_id));
}

/**
 * Writes new attempts (outcome pending) and dates each invoice's first attempt when it is the first.
 * The invoices are found by the attempts' (organization, invoice) passed as arrays, not by the
 * insert's returned rows, whose number the planner does not know (it guessed 100 and scanned).
 */
export async function insertAttempts(em: EntityManager, attempts: readonly PaymentAttemptRow[]): Promise<void> {
  if (attempts.length === 0) return;
  await em.execute(
    `with inserted as (
       insert into payment_attempt (id, organization_id, invoice_id, account_id, card_id, gateway, amount, currency,
         number, outcome, gateway_reference, decline_reason, attempted_at, completed_at, settled_at)
       select id, organization_id, invoice_id, account_id, card_id, gateway, amount, currency, number, outcome,
         gateway_reference, decline_reason, attempted_at, completed_at, settled_at
         from jsonb_populate_recordset(null::payment_attempt, ?::jsonb)
     ), i as materialized (
       select * from unnest(?::uuid[], ?::uuid[], ?::timestamptz[]) as i(organization_id, invoice_id, attempted_at)
     )
     update invoice_payment ip set first_attempt_at = coalesce(ip.first_attempt_at, i.attempted_at),
       updated_at = i.attempted_at
       from i
      where ip.invoice_id = any(array(select invoice_id from i))
        and ip.invoice_id = i.invoice_id and ip.organization_id = i.organization_id`,
    [
      JSON.stringify(attempts),
      pgArray(attempts.map((attempt) => attempt.organization_id)),
      pgArray(attempts.map((attempt) => attempt.invoice_id)),
      pgArray(attempts.map((attempt) => attempt.attempted_at)),
    ],
  );
}

/** What recording an attempt's outcome reads: the attempt, its card, its invoice's dunning state. */
export interface LockedAttempt {
  attempt: PaymentAttemptRow;
  card: { brand: string; last4: string };
  invoice: { invoice_number: string; first_attempt_at: Date | null };
}

/** The attempts with their cards and their invoices' payment rows, locked until the transaction ends. */
export async function lockAttempts(
  em: EntityManager,
  attempts: ReadonlyArray<{ organization_id: string; id: string }>,
): Promise<LockedAttempt[]> {
  if (attempts.length === 0) return [];
  const rows = await em.execute<
    Array<
      PaymentAttemptRow & {
        card_brand: string;
        card_last4: string;
        invoice_number: string;
        invoice_first_attempt_at: Date | null;
      }
    >
  >(
    `select a.*, c.brand as card_brand, c.last4 as card_last4, ip.invoice_number,
       ip.first_attempt_at as invoice_first_attempt_at
       from unnest(?::uuid[], ?::uuid[]) as k(organization_id, id)
       join payment_attempt a on a.id = k.id and a.organization_id = k.organization_id
       join payment_card c on c.id = a.card_id
       join invoice_payment ip on ip.invoice_id = a.invoice_id
      order by a.id
      for update of a, ip`,
    [pgArray(attempts.map((attempt) => attempt.organization_id)), pgArray(attempts.map((attempt) => attempt.id))],
  );
  return rows.map(({ card_brand, card_last4, invoice_number, invoice_first_attempt_at, ...attempt }) => ({
    attempt: attemptRow(attempt),
    card: { brand: card_brand, last4: card_last4 },
    invoice: { invoice_number, first_attempt_at: asDateOrNull(invoice_first_attempt_at) },
  }));
}

/** One attempt's outcome, its invoice's next step, and the mail that tells of it. */
export interface StoredOutcome {
  attempt: PaymentAttemptRow;
  invoice: { status: string; next_attempt_at: Date | null };
  mail: { id: string; facts: PaymentMailFacts };
}

/**
 * Stores the outcomes, moves the invoices' payments on (paid; the next attempt; failed) and writes
 * the mails, in one statement. The outcomes come as one array per column (the planner knows the
 * batch's size: see the top of this file); the mails, only inserted, as one JSON document.
 */
export async function storeOutcomes(em: EntityManager, outcomes: readonly StoredOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const column = (value: (outcome: StoredOutcome) => string | number | Date | null) => pgArray(outcomes.map(value));
  await em.execute(
    `with r as materialized (
       select * from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::timestamptz[],
         ?::text[], ?::timestamptz[], ?::int[])
         as r(organization_id, id, invoice_id, outcome, gateway_reference, decline_reason, completed_at, status,
           next_attempt_at, attempts_made)
     ), stored as (
       update payment_attempt a set outcome = r.outcome, gateway_reference = r.gateway_reference,
         decline_reason = r.decline_reason, completed_at = r.completed_at
         from r where a.id = any(array(select id from r)) and a.id = r.id and a.organization_id = r.organization_id
     ), moved as (
       update invoice_payment ip set status = r.status, next_attempt_at = r.next_attempt_at,
         attempts_made = r.attempts_made, updated_at = r.completed_at
         from r
        where ip.invoice_id = any(array(select invoice_id from r))
          and ip.invoice_id = r.invoice_id and ip.organization_id = r.organization_id
     )
     insert into payment_mail (id, organization_id, account_id, kind, subject_id, facts, attempts, last_error, sent_to,
       sent_at, created_at)
     select id, organization_id, account_id, kind, subject_id, facts, attempts, last_error, sent_to, sent_at, created_at
       from jsonb_populate_recordset(null::payment_mail, ?::jsonb)`,
    [
      column(({ attempt }) => attempt.organization_id),
      column(({ attempt }) => attempt.id),
      column(({ attempt }) => attempt.invoice_id),
      column(({ attempt }) => attempt.outcome),
      column(({ attempt }) => attempt.gateway_reference),
      column(({ attempt }) => attempt.decline_reason),
      column(({ attempt }) => attempt.completed_at ?? null),
      column(({ invoice }) => invoice.status),
      column(({ invoice }) => invoice.next_attempt_at),
      column(({ attempt }) => attempt.number),
      JSON.stringify(
        outcomes.map(({ attempt, mail }) => ({
          id: mail.id,
          organization_id: attempt.organization_id,
          account_id: attempt.account_id,
          kind: mail.facts.kind,
          subject_id: attempt.id,
          facts: mail.facts,
          attempts: 0,
          last_error: null,
          sent_to: null,
          sent_at: null,
          created_at: attempt.completed_at,
        })),
      ),
    ],
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

/** What settling a succeeded attempt with invoicing needs of it. */
export type SettleableAttempt = Pick<
  PaymentAttemptRow,
  'id' | 'organization_id' | 'invoice_id' | 'attempted_at' | 'completed_at'
>;

/** Succeeded attempts not settled with invoicing yet (of one organization, or all), at most `limit`, oldest first. */
export async function unsettledAttempts(
  em: EntityManager,
  organizationId: string | undefined,
  limit: number,
): Promise<SettleableAttempt[]> {
  const rows = await em.execute<SettleableAttempt[]>(
    `select id, organization_id, invoice_id, attempted_at, completed_at from payment_attempt
      where outcome = 'succeeded' and settled_at is null and (?::uuid is null or organization_id = ?::uuid)
      order by attempted_at, id limit ?`,
    [organizationId ?? null, organizationId ?? null, limit],
  );
  return rows.map((row) => ({
    ...row,
    attempted_at: asDate(row.attempted_at),
    completed_at: asDateOrNull(row.completed_at),
  }));
}

/**
 * Marks the attempts settled (those not settled yet). `settled_at is null` is tested as `(…) is
 * true`, a filter on the row found: as an index condition, without statistics, the planner took the
 * (outcome, settled_at) index for it and read every unsettled entry it ever held (dead ones too).
 * The rows are locked first in id order: the worker and a batch's own settling may mark overlapping
 * attempts at once, and two updates locking them in the orders their plans met them deadlocked
 * (seen in a 100,000-subscription billing run).
 */
export async function markSettled(
  em: EntityManager,
  attempts: ReadonlyArray<{ organization_id: string; id: string }>,
  now: Date,
): Promise<void> {
  if (attempts.length === 0) return;
  await em.execute(
    `with k as materialized (select * from unnest(?::uuid[], ?::uuid[]) as k(organization_id, id)),
     locked as materialized (
       select a.id from payment_attempt a
        where a.id = any(array(select id from k)) and (a.settled_at is null) is true
        order by a.id
        for update of a
     )
     update payment_attempt a set settled_at = ?
       from k
      where a.id = any(array(select id from locked))
        and a.id = k.id and a.organization_id = k.organization_id and (a.settled_at is null) is true`,
    [pgArray(attempts.map((attempt) => attempt.organization_id)), pgArray(attempts.map((attempt) => attempt.id)), now],
  );
}
