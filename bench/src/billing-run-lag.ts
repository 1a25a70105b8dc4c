import { decodeEnvelope } from '@billing/events';
import type pg from 'pg';

/**
 * The lag of each stage of the monthly billing run, per item, read from the rows the services
 * wrote (after the run, so the measurement adds no load while it goes on). For every item: the
 * moment its stage was done for it, minus the moment the previous stage was done for it (for the
 * renewal: minus the due moment), and minus the due moment. Nearest-rank p50 and p99 of each.
 *
 * The moments are those the services stamp with their clock while they handle the item, inside
 * the transaction that commits it: the real clock, as the bench organization has no test clock.
 * - renewed: the charge's created_at (the scheduler's renewal);
 * - invoiced: the invoice's issued_at; previous: its charge's created_at;
 * - invoice_sent activity: analytics' inbox row of the invoice.issued event (processed_at, stamped
 *   when analytics took the event up); previous: that event's outbox row (written when the invoice
 *   was issued). Not the activity's created_date: that is the event's occurred_at, the issuing moment;
 * - card payment succeeded: the attempt's completed_at; previous: the invoice's issued_at;
 * - card invoice paid: the invoice.paid event's outbox row (written as invoicing marks it paid);
 *   previous: the attempt's completed_at;
 * - invoice_paid activity: analytics' inbox row of the invoice.paid event; previous: its outbox row.
 * The outboxes have no organization column: their rows of the run are those since the seeding
 * (as in billingRunProblems).
 */

export interface StageLag {
  /** Items whose two moments were found (the stage's items, unless a service stopped writing one). */
  timed: number;
  /** After the previous stage was done for the item, seconds. */
  p50_s: number;
  p99_s: number;
  /** After the due moment, seconds. */
  since_due_p50_s: number;
  since_due_p99_s: number;
}

const ISSUED = 'invoicing.invoice.issued';
const PAID = 'invoicing.invoice.paid';

/** The lags of the stages of billingRunStages, in its order. */
export async function stageLags(
  db: pg.Pool,
  organizationId: string,
  run: { due: Date; seeded: Date },
): Promise<StageLag[]> {
  const since = new Date(run.seeded.getTime() - 1000);
  const paid = await paidMoments(db, organizationId, since);
  const lag = (moments: string, params: unknown[]) => lagOf(db, moments, params, run.due);
  return [
    await lag(
      'select c.created_at as done, $2::timestamptz as previous from subscriptions.charge c where c.organization_id = $1',
      [organizationId, run.due],
    ),
    await lag(
      `select i.issued_at as done, max(c.created_at) as previous
       from invoicing.invoice i
       join invoicing.invoiced_charge ic on ic.invoice_id = i.id
       join subscriptions.charge c on c.id = ic.charge_id
       where i.organization_id = $1 and i.issued_at is not null
       group by i.id, i.issued_at`,
      [organizationId],
    ),
    await lag(analyticsTookUp(ISSUED), [since]),
    await lag(
      `select p.completed_at as done, i.issued_at as previous
       from payments.payment_attempt p join invoicing.invoice i on i.id = p.invoice_id
       where p.organization_id = $1 and p.outcome = 'succeeded'`,
      [organizationId],
    ),
    await lag(
      `select paid.at as done, p.completed_at as previous
       from unnest($1::uuid[], $2::timestamptz[]) paid(invoice_id, at)
       join payments.payment_attempt p on p.invoice_id = paid.invoice_id and p.outcome = 'succeeded'`,
      [paid.map((row) => row.invoiceId), paid.map((row) => row.at)],
    ),
    await lag(analyticsTookUp(PAID), [since]),
  ];
}

/** Each event of the subject since $1: its outbox row's moment, then analytics' inbox row's. */
const analyticsTookUp = (subject: string) =>
  `select x.processed_at as done, o.created_at as previous
   from invoicing.outbox o join analytics.inbox x on x.message_id = o.id
   where o.subject = '${subject}' and o.created_at >= $1`;

/** The organization's invoices marked paid since the moment, and when (their invoice.paid events). */
async function paidMoments(
  db: pg.Pool,
  organizationId: string,
  since: Date,
): Promise<Array<{ invoiceId: string; at: Date }>> {
  const rows = await db.query<{ created_at: Date; payload: Buffer }>(
    'select created_at, payload from invoicing.outbox where subject = $1 and created_at >= $2',
    [PAID, since],
  );
  return rows.rows
    .map((row) => ({ envelope: decodeEnvelope(row.payload), at: row.created_at }))
    .filter(({ envelope }) => envelope.organization_id === organizationId)
    .map(({ envelope, at }) => ({ invoiceId: envelope.aggregate_id, at }));
}

/** Nearest-rank percentiles (percentile_disc) of the items' lags; 0 for a stage without items. */
async function lagOf(db: pg.Pool, moments: string, params: unknown[], due: Date): Promise<StageLag> {
  const dueParam = `$${params.length + 1}::timestamptz`;
  const seconds = (from: string) => `extract(epoch from (m.done - ${from}))`;
  const row = (
    await db.query<Record<keyof StageLag, string | null>>(
      `select count(*) as timed,
         percentile_disc(0.5) within group (order by ${seconds('m.previous')}) as p50_s,
         percentile_disc(0.99) within group (order by ${seconds('m.previous')}) as p99_s,
         percentile_disc(0.5) within group (order by ${seconds(dueParam)}) as since_due_p50_s,
         percentile_disc(0.99) within group (order by ${seconds(dueParam)}) as since_due_p99_s
       from (${moments}) m`,
      [...params, due],
    )
  ).rows[0]!;
  const number = (value: string | null) => Number(Number(value ?? 0).toFixed(3));
  return {
    timed: Number(row.timed),
    p50_s: number(row.p50_s),
    p99_s: number(row.p99_s),
    since_due_p50_s: number(row.since_due_p50_s),
    since_due_p99_s: number(row.since_due_p99_s),
  };
}
