import type pg from 'pg';
import type { BenchPlatform } from './bench-platform.js';
import { organizationOutboxEvents } from './run-outbox.js';
import { apiCaller, seedAccountsViaApi } from './seed-accounts.js';

/**
 * The monthly billing run's scenario, shared by bench:billing-run and the fault tests
 * (bench/test/billing-run-faults.test.ts): one organization's N subscriptions falling due at one
 * moment, what each stage has done so far, and the checks a finished run must pass.
 */

const CURRENCIES = ['DKK', 'EUR', 'USD'] as const;
const TERMS = CURRENCIES.flatMap((currency) => [
  { currency, code: 'monthly', months: 1, price: '100.00' },
  { currency, code: 'yearly', months: 12, price: '1000.00' },
]);

/** The card every card-paying account has: the noop gateway's (no network), or another gateway's token. */
export interface RunCard {
  gateway: string;
  gatewayId: string;
}

export const NOOP_CARD: RunCard = { gateway: 'noop', gatewayId: 'noop_visa' };

export interface SeededRun {
  /** The moment every subscription falls due. */
  due: Date;
  /** When the seeding committed: rows of the run's outboxes are those written since. */
  seeded: Date;
  /** Card invoices the run makes (two subscriptions per card-paying account). */
  cards: number;
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, string | null>>;

const oneRow =
  (db: pg.Pool): Query =>
  async (sql, params = []) =>
    (await db.query(sql, params)).rows[0] as Record<string, string | null>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * N/2 accounts (through the REST API, so every service hears of them), six plan terms (monthly
 * and yearly, DKK, EUR and USD: through the API too) and N active subscriptions, two per account,
 * written into the subscriptions service's table in one statement (as bench:renewals seeds them),
 * all due `leadSeconds` after the seeding. 30 % of the accounts pay by `card` (a row in the payments
 * service's table); their subscriptions' invoices are charged.
 */
export async function seedBillingRun(
  platform: BenchPlatform,
  db: pg.Pool,
  options: {
    subscriptions: number;
    leadSeconds: number;
    card: RunCard;
    /**
     * Called once the accounts, terms and cards are in, before the subscriptions: the moment
     * bench:billing-run copies the schemas for its whole-run baseline. Returns the table the
     * subscriptions are also written into (the copy of subscriptions.subscription), if any.
     */
    beforeSubscriptions?: () => Promise<string | undefined>;
  },
): Promise<SeededRun> {
  const one = oneRow(db);
  const org = platform.organizationId;
  const call = apiCaller(platform.gatewayUrl, platform.token);

  // Analytics records nothing of an organization before accounts' organization.created reached it.
  for (let i = 0; !(await one('select 1 as x from analytics.organization where id = $1', [org])); i++) {
    if (i > 600) throw new Error('analytics never heard of the organization');
    await sleep(50);
  }

  const n = options.subscriptions;
  const accounts = n / 2;
  const stamp = Date.now().toString(36);
  const codes = Array.from({ length: accounts }, (_, i) => `run-${stamp}-${String(i).padStart(6, '0')}`);
  await seedAccountsViaApi(platform.gatewayUrl, platform.token, codes);
  const termIds: string[] = [];
  for (const currency of CURRENCIES) {
    const plan = await call<{ uuid: string }>('POST', '/plans/', {
      name: `Run ${currency}`,
      code: `run-${stamp}-${currency.toLowerCase()}`,
      collect_vat: true,
      vat_type: 'services',
    });
    for (const terms of TERMS.filter((t) => t.currency === currency)) {
      const made = await call<{ uuid: string }>('POST', '/planterms/', {
        plan: plan.uuid,
        code: `${terms.code}-${currency.toLowerCase()}`,
        interval_type: 'month',
        interval_count: terms.months,
        price: terms.price,
        currency,
        backwards_charging: false,
      });
      termIds.push(made.uuid);
    }
  }
  const accountRows = await db.query<{ id: string }>(
    'select id from accounts.account where organization_id = $1 and code like $2 order by code',
    [org, `run-${stamp}-%`],
  );
  const accountIds = accountRows.rows.map((row) => row.id);
  if (accountIds.length !== accounts) throw new Error(`${accountIds.length} accounts in accounts.account`);
  // Every account whose index ends in 0-2 (30 %) pays by card.
  await db.query(
    `insert into payments.payment_card (id, organization_id, account_id, active, brand, last4, month, year, name,
       gateway, gateway_id, gateway_customer, created_at, updated_at, version, expiry_notice_month)
     select gen_random_uuid(), $1, a.id, true, 'visa', '4242', 12, 2030, 'Run Visa', $3, $4, null,
       now(), now(), 1, null
     from unnest($2::uuid[]) with ordinality a(id, k) where (k - 1) % 10 < 3`,
    [org, accountIds, options.card.gateway, options.card.gatewayId],
  );
  const cards = 2 * accountIds.filter((_, k) => k % 10 < 3).length;

  const alsoInto = await options.beforeSubscriptions?.();

  // Subscription i: account i / 2, terms i % 6 (its currency and interval), in its first period,
  // which ends at the due moment (charged through its start, as bench:renewals seeds them). One
  // statement, so the scheduler sees all of them at once.
  const due = new Date(Date.now() + options.leadSeconds * 1000);
  due.setMilliseconds(0);
  await db.query(
    `${alsoInto ? 'with written as (' : ''}insert into subscriptions.subscription (id, organization_id, account_id, plan_terms_id, quantity,
       override_price, status, time_zone, on_test_clock, start_date, original_start_date, base_renewal_date,
       period_n, charged_through, last_renewal_date, next_renewal_date, end_date, cancellation_type, cancel_at,
       scheduled_change, since, pending_lines, contract, due_at, collection_method, group_on_invoice,
       is_auto_renew_enabled, payment_terms, pre_renewal_days_offset, pre_renewal_invoicing, po_number,
       invoice_supplement, reference_person, account_reference_person, case_number, churn_reason_id,
       custom_churn_reason, custom_fields, created_at, updated_at)
     select gen_random_uuid(), $1, a.id, ($3::uuid[])[1 + i % 6], 1 + i % 5, null, 'active',
       'Europe/Copenhagen', false, s.start, s.start, s.start,
       0, s.start, s.start, $2, null, null, null,
       null, null, '[]', null, $2,
       case when (i / 2) % 10 < 3 then 'payment_card' else 'invoice' end, false,
       true, null, 0, false, '',
       null, '', '', '', null,
       null, '{}', s.start, s.start
     from generate_series(0, $4::int - 1) i,
       lateral (select ($5::uuid[])[1 + i / 2] as id) a,
       lateral (select $2::timestamptz - case when i % 2 = 1 then interval '1 year' else interval '1 month' end
         as start) s
     ${alsoInto ? `returning *) insert into ${alsoInto} select * from written` : ''}`,
    [org, due, termIds, n, accountIds],
  );
  await db.query('analyze subscriptions.subscription');
  return { due, seeded: new Date(), cards };
}

export interface Stage {
  name: string;
  target: number;
  done: number;
  /** Seconds after the due moment when the first item / the last item was seen done. */
  first?: number;
  last?: number;
}

/** The run's stages, each done when all of its items are: the run is over when every stage is. */
export function billingRunStages(subscriptions: number, cards: number): Stage[] {
  return [
    { name: 'renewed (charges by the scheduler)', target: subscriptions, done: 0 },
    { name: 'invoiced (issued with a number)', target: subscriptions, done: 0 },
    { name: 'invoice_sent activities (analytics)', target: subscriptions, done: 0 },
    { name: 'card payments succeeded (payments)', target: cards, done: 0 },
    { name: 'card invoices paid (invoicing)', target: cards, done: 0 },
    { name: 'invoice_paid activities (analytics)', target: cards, done: 0 },
  ];
}

/** Stages whose count walks an index (renewed, card payments, paid invoices) are counted every SPARSE_EVERY-th poll. */
const SPARSE_EVERY = 4;
/** The most activities one poll reads (the next poll goes on from there). */
const ACTIVITY_WINDOW = 20_000;

/**
 * Counts what each stage has done for the organization, noting when each stage first and last
 * moved. Every count costs what changed since the last poll, not what the organization holds (at
 * 100,000 subscriptions, counting the organization's rows each time took about a third of a core
 * of Postgres from the run it watches):
 * - renewed: the subscriptions still due, on the due index (a renewal moves `due_at` on in the
 *   transaction that writes its charge); the scan also walks the index entries the renewals left
 *   behind (until a vacuum);
 * - invoiced: the highest invoice number (numbers are gapless and each one commits before the
 *   next is taken: the organization's counter row stays locked until then);
 * - activities: those recorded since the last poll, by `seq` (an organization's activities are
 *   written under its lock, so they commit in `seq` order); the organization is filtered after
 *   the `seq` range, so no plan can prefer the organization's index;
 * - card payments and paid invoices: on the (outcome, …) and (status, …) indexes, which hold only
 *   the card invoices' rows in those states (30,000 entries at the end of a 100,000 run).
 * The three index walks are counted every SPARSE_EVERY-th poll only (at 100,000 subscriptions they
 * had taken 34 s of Postgres polled every time), and every poll once the other stages are done, so
 * that the last stage's end is still seen within a poll. A stage already done is not counted again.
 * `walkEvery: 1` walks them on every poll: a test that acts on a stage's count (kills the service
 * in the middle of its work) needs the count of the moment, and a run of 1,000 costs little to count.
 */
export class StagePoller {
  private polls = 0;
  private activitySeq = '0';
  private invoiceSent = 0;
  private invoicePaid = 0;

  constructor(
    private readonly db: pg.Pool,
    private readonly organizationId: string,
    private readonly due: Date,
    private readonly walkEvery = SPARSE_EVERY,
  ) {}

  async poll(stages: Stage[], start: number): Promise<void> {
    const one = oneRow(this.db);
    const org = this.organizationId;
    const pending = (...indexes: number[]) => indexes.some((k) => stages[k]!.last === undefined);
    const counts: Array<number | undefined> = [];
    // This poll walks the indexes: every walkEvery-th, or every one once the stages counted
    // cheaply (invoiced, the activities) are done.
    const walk = this.polls++ % this.walkEvery === 0 || !pending(1, 2, 5);
    if (pending(0) && walk) {
      const { n } = await one(
        `select count(*) filter (where organization_id = $1) as n from subscriptions.subscription
          where on_test_clock = false and due_at <= $2`,
        [org, this.due],
      );
      counts[0] = stages[0]!.target - Number(n);
    }
    if (pending(1)) {
      const { n } = await one(
        'select coalesce(max(invoice_number), 0) as n from invoicing.invoice where organization_id = $1',
        [org],
      );
      counts[1] = Number(n);
    }
    if (pending(2, 5)) {
      // A bounded range of seq: without statistics an open one (`seq > $2`) is planned as a scan
      // of the whole table. A range without any row jumps to the next recorded activity.
      const news = await one(
        `select count(*) filter (where organization_id = $1 and type = 'invoice_sent') as sent,
           count(*) filter (where organization_id = $1 and type = 'invoice_paid') as paid, max(seq) as seq
         from analytics.activity where seq > $2 and seq <= $2::bigint + ${ACTIVITY_WINDOW}`,
        [org, this.activitySeq],
      );
      this.invoiceSent += Number(news.sent);
      this.invoicePaid += Number(news.paid);
      this.activitySeq =
        news.seq ??
        (await one('select coalesce(min(seq) - 1, $1) as seq from analytics.activity where seq > $1', [
          this.activitySeq,
        ]))!.seq!;
      counts[2] = this.invoiceSent;
      counts[5] = this.invoicePaid;
    }
    if (pending(3) && walk) {
      const { n } = await one(
        `select count(*) filter (where organization_id = $1) as n from payments.payment_attempt where outcome = 'succeeded'`,
        [org],
      );
      counts[3] = Number(n);
    }
    if (pending(4) && walk) {
      const { n } = await one(
        `select count(*) filter (where organization_id = $1) as n from invoicing.invoice where status = 'paid'`,
        [org],
      );
      counts[4] = Number(n);
    }
    const at = (Date.now() - start) / 1000;
    stages.forEach((stage, k) => {
      if (stage.last !== undefined || counts[k] === undefined) return;
      stage.done = counts[k];
      if (stage.first === undefined && stage.done > 0) stage.first = at;
      if (stage.done >= stage.target) stage.last = at;
    });
  }
}

/**
 * The checks of a finished run, per organization, against what the scheduler charged: subtotals
 * per currency, invoice numbers 1..n without gaps, every invoice open or (card) paid, one
 * invoice_sent activity per invoice and one invoice_paid per card invoice, one invoice.issued
 * outbox row per invoice, one charge.created per subscription, and each card invoice charged by
 * one succeeded attempt. Returns what is wrong (nothing when the run is right) and the average
 * size of an invoice.issued payload (the baseline writes rows of that size).
 */
export async function billingRunProblems(
  db: pg.Pool,
  organizationId: string,
  run: { subscriptions: number; cards: number; seeded: Date },
): Promise<{ problems: string[]; issuedPayloadBytes: number }> {
  const one = oneRow(db);
  const n = run.subscriptions;
  const { cards } = run;
  const problems: string[] = [];
  const perCurrency = async (sql: string) =>
    Object.fromEntries(
      (await db.query<{ currency: string; amount: string }>(sql, [organizationId])).rows.map((row) => [
        row.currency,
        row.amount,
      ]),
    );
  const charged = await perCurrency(
    `select currency, sum(amount)::numeric(20,2)::text as amount from subscriptions.charge
     where organization_id = $1 group by currency order by currency`,
  );
  const invoiced = await perCurrency(
    `select currency, sum(subtotal)::numeric(20,2)::text as amount from invoicing.invoice
     where organization_id = $1 group by currency order by currency`,
  );
  if (JSON.stringify(charged) !== JSON.stringify(invoiced))
    problems.push(`invoiced subtotals ${JSON.stringify(invoiced)} are not the charges ${JSON.stringify(charged)}`);
  const chargeRows = await one(
    'select count(*) as n, count(distinct subscription_id) as d from subscriptions.charge where organization_id = $1',
    [organizationId],
  );
  if (chargeRows.n !== String(n) || chargeRows.d !== String(n))
    problems.push(`charges: ${chargeRows.n} for ${chargeRows.d} subscriptions, expected ${n} for ${n}`);
  const numbers = await one(
    `select count(*) as n, count(distinct invoice_number) as d, min(invoice_number) as lo, max(invoice_number) as hi,
       count(*) filter (where status not in ('open', 'paid')) as other,
       count(*) filter (where status = 'paid' and collection_method <> 'payment_card') as wrongly_paid
     from invoicing.invoice where organization_id = $1`,
    [organizationId],
  );
  if (!(numbers.n === String(n) && numbers.d === String(n) && numbers.lo === '1' && numbers.hi === String(n)))
    problems.push(`invoice numbers: ${numbers.n} invoices, ${numbers.d} numbers ${numbers.lo}..${numbers.hi}`);
  if (numbers.other !== '0') problems.push(`${numbers.other} invoices neither open nor paid`);
  if (numbers.wrongly_paid !== '0') problems.push(`${numbers.wrongly_paid} invoices paid without a card`);
  const invoicedCharges = await one(
    'select count(*) as n, count(distinct charge_id) as d from invoicing.invoiced_charge where organization_id = $1',
    [organizationId],
  );
  if (invoicedCharges.n !== String(n) || invoicedCharges.d !== String(n))
    problems.push(`invoiced charges: ${invoicedCharges.n} rows for ${invoicedCharges.d} charges, expected ${n}`);
  const activities = await one(
    `select count(*) filter (where type = 'invoice_sent') as sent,
       count(distinct invoice_id) filter (where type = 'invoice_sent') as sent_invoices,
       count(*) filter (where type = 'invoice_paid') as paid,
       count(distinct invoice_id) filter (where type = 'invoice_paid') as paid_invoices
     from analytics.activity where organization_id = $1`,
    [organizationId],
  );
  if (activities.sent !== String(n) || activities.sent_invoices !== String(n))
    problems.push(
      `invoice_sent activities: ${activities.sent} for ${activities.sent_invoices} invoices, expected ${n}`,
    );
  if (activities.paid !== String(cards) || activities.paid_invoices !== String(cards))
    problems.push(
      `invoice_paid activities: ${activities.paid} for ${activities.paid_invoices} invoices, expected ${cards}`,
    );
  // The organization's rows of the outboxes since the seeding (read from their envelopes).
  const since = new Date(run.seeded.getTime() - 1000);
  const events = (schema: string, subject: string) =>
    organizationOutboxEvents(db, { schema, subject, organizationId, since });
  const issued = await events('invoicing', 'invoicing.invoice.issued');
  const issuedInvoices = new Set(issued.map((event) => event.aggregateId)).size;
  if (issued.length !== n || issuedInvoices !== n)
    problems.push(`invoice.issued outbox rows: ${issued.length} for ${issuedInvoices} invoices, expected ${n}`);
  const chargeEvents = await events('subscriptions', 'subscriptions.charge.created');
  if (chargeEvents.length !== n) problems.push(`charge.created outbox rows: ${chargeEvents.length}, expected ${n}`);
  const charges = await one(
    `select count(*) as attempts, count(distinct invoice_id) as invoices,
       count(*) filter (where outcome = 'succeeded') as succeeded from payments.payment_attempt
     where organization_id = $1`,
    [organizationId],
  );
  if (charges.attempts !== String(cards) || charges.invoices !== String(cards) || charges.succeeded !== String(cards))
    problems.push(
      `card charges: ${charges.attempts} attempts on ${charges.invoices} invoices, ${charges.succeeded} succeeded; expected ${cards} of each`,
    );
  const issuedBytes = issued.reduce((sum, event) => sum + event.bytes, 0);
  return { problems, issuedPayloadBytes: issued.length > 0 ? Math.round(issuedBytes / issued.length) : 1400 };
}
