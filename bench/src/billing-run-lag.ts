import type pg from 'pg';
import { type OutboxEvent, organizationOutboxEvents } from './run-outbox.js';

/**
 * The lag of each stage of the monthly billing run, per item, read from the rows the services
 * wrote (after the run, so the measurement adds no load while it goes on). For every item: the
 * moment its stage was done for it, minus the moment the previous stage was done for it (for the
 * renewal: minus the due moment), and minus the due moment. Nearest-rank p50 and p99 of each.
 *
 * The moments are those the services stamp with their clock as they handle the item: the real
 * clock, as the bench organization has no test clock.
 * - renewed: the charge.created event's outbox row published_at (stamped by the subscriptions
 *   relay once the renewal's transaction had committed). Not the charge's created_at: that is the
 *   scheduler pass's moment, the same for every subscription it renews, batch after batch;
 * - invoiced: the invoice's issued_at; previous: its charge.created's published_at;
 * - invoice_sent activity: analytics' inbox row of the invoice.issued event (processed_at, stamped
 *   when analytics took the event up); previous: that event's outbox row (written when the invoice
 *   was issued). Not the activity's created_date: that is the event's occurred_at, the issuing moment;
 * - card payment succeeded: the attempt's completed_at; previous: the invoice's issued_at;
 * - card invoice paid: the invoice.paid event's outbox row (written as invoicing marks it paid);
 *   previous: the attempt's completed_at;
 * - invoice_paid activity: analytics' inbox row of the invoice.paid event; previous: its outbox row.
 * The outboxes' rows are the organization's since the seeding (as billingRunProblems reads them).
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

/** The lags of the stages of billingRunStages, in its order. */
export async function stageLags(
  db: pg.Pool,
  organizationId: string,
  run: { due: Date; seeded: Date },
): Promise<StageLag[]> {
  const since = new Date(run.seeded.getTime() - 1000);
  const events = (schema: string, subject: string) =>
    organizationOutboxEvents(db, { schema, subject, organizationId, since });
  const charges = await events('subscriptions', 'subscriptions.charge.created');
  const issued = await events('invoicing', 'invoicing.invoice.issued');
  const paid = await events('invoicing', 'invoicing.invoice.paid');
  const lag = (moments: string, params: unknown[]) => lagOf(db, moments, params, run.due);
  return [
    await lag(`select e.at as done, $4::timestamptz as previous from ${EVENTS} where e.at is not null`, [
      ...eventColumns(charges, 'publishedAt'),
      run.due,
    ]),
    // charge.created is about the subscription, which has the one charge of the run.
    await lag(
      `select i.issued_at as done, max(e.at) as previous
       from ${EVENTS}
       join subscriptions.charge c on c.subscription_id = e.aggregate_id and c.organization_id = $4
       join invoicing.invoiced_charge ic on ic.charge_id = c.id
       join invoicing.invoice i on i.id = ic.invoice_id
       where i.issued_at is not null
       group by i.id, i.issued_at`,
      [...eventColumns(charges, 'publishedAt'), organizationId],
    ),
    await lag(ANALYTICS_TOOK_UP, eventColumns(issued, 'createdAt')),
    await lag(
      `select p.completed_at as done, i.issued_at as previous
       from payments.payment_attempt p join invoicing.invoice i on i.id = p.invoice_id
       where p.organization_id = $1 and p.outcome = 'succeeded'`,
      [organizationId],
    ),
    await lag(
      `select e.at as done, p.completed_at as previous
       from ${EVENTS} join payments.payment_attempt p on p.invoice_id = e.aggregate_id and p.outcome = 'succeeded'`,
      eventColumns(paid, 'createdAt'),
    ),
    await lag(ANALYTICS_TOOK_UP, eventColumns(paid, 'createdAt')),
  ];
}

/** Events as rows e(id, at, aggregate_id), from the parameters $1-$3 that eventColumns makes. */
const EVENTS = 'unnest($1::uuid[], $2::timestamptz[], $3::uuid[]) e(id, at, aggregate_id)';

/** Events as the parameters of EVENTS: ids, the chosen moment of each, what each is about. */
const eventColumns = (events: OutboxEvent[], moment: 'createdAt' | 'publishedAt') => [
  events.map((event) => event.id),
  events.map((event) => event[moment]),
  events.map((event) => event.aggregateId),
];

/** Each event: its outbox row's moment, then analytics' inbox row's. */
const ANALYTICS_TOOK_UP = `select x.processed_at as done, e.at as previous
  from ${EVENTS} join analytics.inbox x on x.message_id = e.id`;

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
