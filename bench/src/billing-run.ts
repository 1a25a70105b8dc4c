import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { migrate, openOrm } from '@billing/db';
import { decodeEnvelope } from '@billing/events';
import { invoicingEntities, invoicingMigrations } from '@billing/invoicing';
import { startNatsServer } from '@billing/testing';
import pg from 'pg';
import { type BillingRunOptions, parseBillingRunOptions } from './billing-run-options.js';
import { billingRunProblems, billingRunStages, NOOP_CARD, pollStages, seedBillingRun } from './billing-run-scenario.js';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { baselineInvoiceAll } from './invoice-baseline.js';
import { invoiceCounts, invoiceProblems } from './invoice-seed.js';
import { startPlatformProcesses } from './platform-processes.js';
import { cpuSince, cpuSnapshot, postgresBackendCpu, postgresCpuSince } from './process-cpu.js';

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

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

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

  const n = options.subscriptions;
  log(`seeding ${n / 2} accounts through the API, 6 plan terms, ${n} due subscriptions`);
  const seedStart = performance.now();
  const {
    due,
    seeded: seededAt,
    cards,
  } = await seedBillingRun(platform, db, {
    subscriptions: n,
    leadSeconds: options.leadSeconds,
    card: NOOP_CARD,
  });
  const seeded = seededAt.getTime();
  log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s; due at ${due.toISOString()}`);
  // The clock starts at the due moment, or when the rows were committed if that came later.
  const start = Math.max(due.getTime(), seeded);
  await sleep(start - Date.now());
  // CPU of each process over the run: where the time goes (the stage whose process is busiest).
  const database = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1));
  const cpuBefore = cpuSnapshot(platform.servers);
  const postgresBefore = postgresBackendCpu(database);

  const stages = billingRunStages(n, cards);
  const poll = () => pollStages(db, org, stages, start);
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

  const { problems, issuedPayloadBytes } = await billingRunProblems(db, org, {
    subscriptions: n,
    cards,
    seeded: seededAt,
  });
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
    { payloadBytes: issuedPayloadBytes },
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
