import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { migrate, openOrm } from '@billing/db';
import { decodeEnvelope } from '@billing/events';
import { invoicingEntities, invoicingMigrations } from '@billing/invoicing';
import { startNatsServer } from '@billing/testing';
import pg from 'pg';
import { type BillingRunOptions, parseBillingRunOptions } from './billing-run-options.js';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { baselineInvoiceAll } from './invoice-baseline.js';
import { invoiceCounts, invoiceProblems } from './invoice-seed.js';
import { startPlatformProcesses } from './platform-processes.js';
import { cpuSince, cpuSnapshot, postgresBackendCpu, postgresCpuSince } from './process-cpu.js';
import { apiHeaders, seedAccountsViaApi } from './seed-accounts.js';

/**
 * Benchmark: the monthly billing run (issue 14). The platform runs in its production shape
 * (gateway, accounts, subscriptions, invoicing, analytics and payments as processes, events on
 * NATS JetStream: a private nats-server unless --nats-url names one). One organization gets N/2
 * accounts (through the REST API, so every service hears of them), six plan terms (monthly and
 * yearly, DKK, EUR and USD: through the API too) and N active subscriptions, two per account,
 * written into the subscriptions service's table in one statement (as bench:renewals seeds them),
 * all due at the same moment a few seconds ahead. 30 % of the accounts pay by card (a noop card in
 * the payments service's table); their subscriptions' invoices are charged.
 *
 * From the due moment on, nothing is called: the subscriptions scheduler renews them (charges),
 * invoicing issues the invoices (invoice.issued), analytics records an invoice_sent activity per
 * invoice (invoice_paid per card invoice), payments charges the card invoices and invoicing marks
 * them paid. A poller notes when each stage has done all of its N (or card) items. Wall time: from
 * the due moment until the last invoice is paid or open and the last activity written.
 *
 * Baseline in the same run: a raw-SQL program (invoice-baseline.ts) writing the same invoice rows
 * for the same charge.created messages into a throwaway invoicing schema, --baseline-batch
 * messages per transaction, no services. Ratio: the platform's invoices/s end to end over the
 * baseline's. Exits 1 when a check fails (counts, totals per currency, numbers 1..n without gaps,
 * one invoice_sent per invoice, one invoice.issued outbox row per invoice, no invoice charged twice).
 */

const options: BillingRunOptions = optionsOrExit(() => parseBillingRunOptions(process.argv.slice(2), process.env));
const { log, cleanups, runCleanups, state } = benchRun('bench:billing-run', 'stopping the platform');

const CURRENCIES = ['DKK', 'EUR', 'USD'] as const;
const TERMS = CURRENCIES.flatMap((currency) => [
  { currency, code: 'monthly', months: 1, price: '100.00' },
  { currency, code: 'yearly', months: 12, price: '1000.00' },
]);
const POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

interface Stage {
  name: string;
  target: number;
  done: number;
  /** Seconds after the due moment when the first item / the last item was seen done. */
  first?: number;
  last?: number;
}

try {
  await ensureDatabase(options.databaseUrl);
  let natsUrl = options.natsUrl;
  if (!natsUrl) {
    const nats = await startNatsServer();
    cleanups.push(() => nats.dispose());
    natsUrl = nats.url;
  }
  const platform = await startPlatformProcesses({
    databaseUrl: options.databaseUrl,
    natsUrl,
    analytics: true,
    payments: true,
    cpuProfDir: options.cpuProfDir,
    log,
  });
  cleanups.push(() => platform.stop());
  const org = platform.organizationId;
  const db = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  cleanups.push(() => db.end());
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query(sql, params)).rows[0] as Record<string, string | null>;

  const base = `${platform.gatewayUrl}/api/v1`;
  const headers = { ...apiHeaders(platform.token), 'Content-Type': 'application/json' };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  // Analytics records nothing of an organization before accounts' organization.created reached it.
  for (let i = 0; !(await one('select 1 as x from analytics.organization where id = $1', [org])); i++) {
    if (i > 600) throw new Error('analytics never heard of the organization');
    await sleep(50);
  }

  const n = options.subscriptions;
  const accounts = n / 2;
  log(`seeding ${accounts} accounts through the API, ${TERMS.length} plan terms, ${n} due subscriptions`);
  const stamp = Date.now().toString(36);
  const codes = Array.from({ length: accounts }, (_, i) => `run-${stamp}-${String(i).padStart(6, '0')}`);
  const seedStart = performance.now();
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
  // Every account whose index ends in 0-2 (30 %) pays by card: a noop card charges without a network.
  await db.query(
    `insert into payments.payment_card (id, organization_id, account_id, active, brand, last4, month, year, name,
       gateway, gateway_id, gateway_customer, created_at, updated_at, version, expiry_notice_month)
     select gen_random_uuid(), $1, a.id, true, 'visa', '4242', 12, 2030, 'Noop Visa', 'noop', 'noop_visa', null,
       now(), now(), 1, null
     from unnest($2::uuid[]) with ordinality a(id, k) where (k - 1) % 10 < 3`,
    [org, accountIds],
  );
  const cards = 2 * accountIds.filter((_, k) => k % 10 < 3).length;

  // Subscription i: account i / 2, terms i % 6 (its currency and interval), in its first period,
  // which ends at the due moment (charged through its start, as bench:renewals seeds them). One statement, so the scheduler sees all of them at once.
  const due = new Date(Date.now() + options.leadSeconds * 1000);
  due.setMilliseconds(0);
  await db.query(
    `insert into subscriptions.subscription (id, organization_id, account_id, plan_terms_id, quantity,
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
         as start) s`,
    [org, due, termIds, n, accountIds],
  );
  await db.query('analyze subscriptions.subscription');
  const seeded = Date.now();
  log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s; due at ${due.toISOString()}`);
  // The clock starts at the due moment, or when the rows were committed if that came later.
  const start = Math.max(due.getTime(), seeded);
  await sleep(start - Date.now());
  // CPU of each process over the run: where the time goes (the stage whose process is busiest).
  const database = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1));
  const cpuBefore = cpuSnapshot(platform.servers);
  const postgresBefore = postgresBackendCpu(database);

  const stages: Stage[] = [
    { name: 'renewed (charges by the scheduler)', target: n, done: 0 },
    { name: 'invoiced (issued with a number)', target: n, done: 0 },
    { name: 'invoice_sent activities (analytics)', target: n, done: 0 },
    { name: 'card payments succeeded (payments)', target: cards, done: 0 },
    { name: 'card invoices paid (invoicing)', target: cards, done: 0 },
    { name: 'invoice_paid activities (analytics)', target: cards, done: 0 },
  ];
  const poll = async () => {
    const charges = await one('select count(*) as n from subscriptions.charge where organization_id = $1', [org]);
    const invoices = await one(
      `select count(*) filter (where invoice_number is not null and status <> 'pending') as issued,
         count(*) filter (where status = 'paid') as paid
       from invoicing.invoice where organization_id = $1`,
      [org],
    );
    const activities = await one(
      `select count(*) filter (where type = 'invoice_sent') as sent, count(*) filter (where type = 'invoice_paid') as paid
       from analytics.activity where organization_id = $1`,
      [org],
    );
    const payments = await one(
      `select count(*) as n from payments.payment_attempt where organization_id = $1 and outcome = 'succeeded'`,
      [org],
    );
    const counts = [charges.n, invoices.issued, activities.sent, payments.n, invoices.paid, activities.paid];
    const at = (Date.now() - start) / 1000;
    stages.forEach((stage, k) => {
      stage.done = Number(counts[k]);
      if (stage.first === undefined && stage.done > 0) stage.first = at;
      if (stage.last === undefined && stage.done >= stage.target) stage.last = at;
    });
  };
  const deadline = start + options.timeoutSeconds * 1000;
  let lastReport = Date.now();
  for (;;) {
    await poll();
    if (stages.every((stage) => stage.last !== undefined)) break;
    if (stages[0]!.done === 0 && Date.now() - start > 60_000) throw new Error('no charge 60 s after the due moment');
    if (Date.now() > deadline) {
      throw new Error(
        `not done ${options.timeoutSeconds} s after the due moment: ${stages.map((s) => `${s.name} ${s.done}/${s.target}`).join(', ')}`,
      );
    }
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      log(`${((Date.now() - start) / 1000).toFixed(0)} s: ${stages.map((s) => `${s.done}/${s.target}`).join(', ')}`);
    }
    await sleep(POLL_MS);
  }
  const wall = Math.max(...stages.map((stage) => stage.last!));
  const cpu = cpuSince(cpuBefore, platform.servers);
  const postgresCpu = postgresCpuSince(postgresBefore, database);
  const wallSeconds = (Date.now() - start) / 1000;
  const cores = Object.fromEntries(
    [...cpu, ['postgres', postgresCpu] as const].map(([name, micros]) => [name, round(micros / 1e6 / wallSeconds, 2)]),
  );
  log(`every stage done ${wall.toFixed(1)} s after the due moment; checking`);

  // The checks: per organization, against what the scheduler charged.
  const problems: string[] = [];
  const perCurrency = async (sql: string) =>
    Object.fromEntries(
      (await db.query<{ currency: string; amount: string }>(sql, [org])).rows.map((row) => [row.currency, row.amount]),
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
  const numbers = await one(
    `select count(*) as n, count(distinct invoice_number) as d, min(invoice_number) as lo, max(invoice_number) as hi,
       count(*) filter (where status not in ('open', 'paid')) as other,
       count(*) filter (where status = 'paid' and collection_method <> 'payment_card') as wrongly_paid
     from invoicing.invoice where organization_id = $1`,
    [org],
  );
  if (!(numbers.n === String(n) && numbers.d === String(n) && numbers.lo === '1' && numbers.hi === String(n)))
    problems.push(`invoice numbers: ${numbers.n} invoices, ${numbers.d} numbers ${numbers.lo}..${numbers.hi}`);
  if (numbers.other !== '0') problems.push(`${numbers.other} invoices neither open nor paid`);
  if (numbers.wrongly_paid !== '0') problems.push(`${numbers.wrongly_paid} invoices paid without a card`);
  const sent = await one(
    `select count(*) as n, count(distinct invoice_id) as d from analytics.activity
     where organization_id = $1 and type = 'invoice_sent'`,
    [org],
  );
  if (sent.n !== String(n) || sent.d !== String(n))
    problems.push(`invoice_sent activities: ${sent.n} for ${sent.d} invoices, expected ${n} for ${n}`);
  // invoicing's outbox has no organization column: the run's own rows are those since the seeding.
  const issuedEvents = await one(
    `select count(*) as n, avg(octet_length(payload))::int as bytes from invoicing.outbox
     where subject = 'invoicing.invoice.issued' and created_at >= $1`,
    [new Date(seeded - 1000)],
  );
  if (issuedEvents.n !== String(n)) problems.push(`invoice.issued outbox rows: ${issuedEvents.n}, expected ${n}`);
  const charges = await one(
    `select count(*) as attempts, count(distinct invoice_id) as invoices,
       count(*) filter (where outcome = 'succeeded') as succeeded from payments.payment_attempt
     where organization_id = $1`,
    [org],
  );
  if (charges.attempts !== String(cards) || charges.invoices !== String(cards) || charges.succeeded !== String(cards))
    problems.push(
      `card charges: ${charges.attempts} attempts on ${charges.invoices} invoices, ${charges.succeeded} succeeded; expected ${cards} of each`,
    );
  if (problems.length > 0) throw new Error(`the billing run is wrong: ${problems.join('; ')}`);

  // The baseline: the same charge.created messages, the same invoice rows, raw SQL in batches.
  const outbox = await db.query<{ payload: Buffer }>(
    `select payload from subscriptions.outbox where subject = 'subscriptions.charge.created' and created_at >= $1
     order by position`,
    [new Date(seeded - 1000)],
  );
  const messages = outbox.rows.map((row) => row.payload).filter((data) => decodeEnvelope(data).organization_id === org);
  if (messages.length !== n) throw new Error(`${messages.length} charge.created messages of the run, expected ${n}`);
  const lines = await one(
    `select sum(jsonb_array_length(lines))::text as n, sum(amount)::numeric(20,2)::text as amount
     from subscriptions.charge where organization_id = $1`,
    [org],
  );
  const schema = `bench_run_${randomUUID().slice(0, 8)}_invoicing`;
  const orm = await openOrm({
    clientUrl: options.databaseUrl,
    schema,
    entities: invoicingEntities,
    migrations: invoicingMigrations,
  });
  cleanups.push(() => orm.close(true));
  await migrate(orm);
  const scratch = new pg.Client({ connectionString: options.databaseUrl, options: `-c search_path=${schema}` });
  await scratch.connect();
  cleanups.push(async () => {
    await scratch.query(`drop schema if exists "${schema}" cascade`);
    await scratch.end();
  });
  const pool = new pg.Pool({ connectionString: options.databaseUrl, options: `-c search_path=${schema}`, max: 1 });
  cleanups.push(() => pool.end());
  log(`baseline: ${n} invoices by raw SQL, ${options.baselineBatch} per transaction`);
  const baselineStart = performance.now();
  const baselineInvoiced = await baselineInvoiceAll(
    pool,
    messages,
    { payloadBytes: Number(issuedEvents.bytes ?? 1400) },
    options.baselineBatch,
  );
  const baselineSeconds = (performance.now() - baselineStart) / 1000;
  const baselineProblems = invoiceProblems(await invoiceCounts(scratch), {
    invoices: n,
    lines: Number(lines.n),
    amount: lines.amount ?? '0',
  });
  if (baselineInvoiced !== n) baselineProblems.push(`baseline reported ${baselineInvoiced} invoices`);
  if (baselineProblems.length > 0) throw new Error(`the baseline wrote the wrong rows: ${baselineProblems.join('; ')}`);

  const invoicesPerSecond = n / wall;
  const baselinePerSecond = n / baselineSeconds;
  const result = {
    subscriptions: n,
    card_invoices: cards,
    wall_s: round(wall, 2),
    invoices_per_s: round(invoicesPerSecond),
    baseline_invoices_per_s: round(baselinePerSecond),
    baseline_s: round(baselineSeconds, 2),
    ratio: round(invoicesPerSecond / baselinePerSecond, 3),
    stages: stages.map((stage) => ({
      stage: stage.name,
      items: stage.target,
      first_s: round(stage.first ?? 0, 2),
      last_s: round(stage.last!, 2),
      per_s: round(stage.target / stage.last!),
      sustained_per_s: round(stage.target / Math.max(0.25, stage.last! - (stage.first ?? 0))),
    })),
    /** Cores each process (and the database's Postgres backends) kept busy from the due moment to the end. */
    busy_cores: cores,
    load: round(loadavg()[0] ?? 0, 2),
    cores: availableParallelism(),
    node: process.version,
  };
  console.log(`billing run: ${n} due subscriptions (${cards} paying by card), ${result.cores} cores, load ${result.load}

| stage | items | first done (s after due) | all done (s) | items/s from due | items/s first→last |
|---|---|---|---|---|---|
${result.stages.map((s) => `| ${s.stage} | ${s.items} | ${s.first_s} | ${s.last_s} | ${s.per_s} | ${s.sustained_per_s} |`).join('\n')}

busy cores from the due moment to the end: ${Object.entries(cores)
    .map(([name, used]) => `${name} ${used}`)
    .join(', ')}

end to end: ${result.wall_s} s, ${result.invoices_per_s} invoices/s
baseline (raw SQL, ${options.baselineBatch} invoices per transaction): ${result.baseline_s} s, ${result.baseline_invoices_per_s} invoices/s
ratio: ${result.ratio} (target: 100,000 in ≤ 60 s, ≥ 1,700 invoices/s, ratio ≥ 0.5)`);
  log(
    `checked: ${n} invoices numbered 1..${n}, subtotals per currency = the charges, ${n} invoice_sent activities, ${n} invoice.issued rows, ${cards} card invoices charged once each`,
  );
  if (options.json) console.log(JSON.stringify(result));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
  process.exit(state.exitCode);
}
