import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { migrate, openOrm } from '@billing/db';
import { invoicingEntities, invoicingMigrations } from '@billing/invoicing';
import pg from 'pg';
import { type BillingRunOptions, parseBillingRunOptions } from './billing-run-options.js';
import { runShape, type ShapeRun } from './billing-run-shape.js';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { baselineInvoiceAll, type InvoiceBaselineWork } from './invoice-baseline.js';
import { baselineInvoiceBatches } from './invoice-batch-baseline.js';
import { invoiceCounts, invoiceProblems } from './invoice-seed.js';
import { dropReplay, type RunReplay, replayProblems } from './run-replay.js';
import { replayRunRows } from './run-replay-baseline.js';

/**
 * Benchmark: the monthly billing run (issue 14). The platform runs in its production shape
 * (gateway, accounts, subscriptions, invoicing, analytics and payments as processes, events on
 * NATS JetStream: a private nats-server unless --nats-url names one) and then in-process (the
 * gateway and the five services in this process, the same JetStream): `--shape` picks one or
 * both (billing-run-shape.ts runs each, one after the other). Each shape: one organization gets N/2
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
 * the due moment until the last invoice is paid or open and the last activity written. Per stage,
 * after the run: p50/p99 of each item's lag behind the previous stage and behind the due moment,
 * from the moments the services stamped on its rows (billing-run-lag.ts).
 *
 * Baselines in the same run, after the shapes, for the first shape's run:
 * - the ratio's (eighteenth session on): every row the run wrote in the five services' schemas
 *   (renewed subscriptions, charges, invoices, lines, read models, activities, payments, inboxes,
 *   outboxes, audit rows), each as it ended up, written again by one program into copies of the
 *   schemas taken just before the run, in equal batches of about --baseline-batch invoices' rows,
 *   a transaction per batch and a multi-row statement per table and kind of write (run-replay.ts,
 *   run-replay-baseline.ts); the copies must then hold exactly what the schemas held after the run;
 * - the invoicing rows alone, computed from the run's charge.created messages (numbers, totals,
 *   VAT), two multi-row statements per batch (invoice-batch-baseline.ts): `ratio_invoicing_rows`;
 * - the same invoicing rows by two statements per invoice (invoice-baseline.ts), the ratio's
 *   baseline until the seventeenth session: `ratio_per_invoice_statements`.
 * Each ratio: the shape's invoices/s end to end over the baseline's. Exits 1 when a check of either
 * shape fails (counts, totals per currency, numbers 1..n without gaps, one invoice_sent per
 * invoice, one invoice.issued outbox row per invoice, no invoice charged twice) or a baseline
 * wrote other rows than the run.
 */

const options: BillingRunOptions = optionsOrExit(() => parseBillingRunOptions(process.argv.slice(2), process.env));
const { log, cleanups, runCleanups, state } = benchRun('bench:billing-run', 'stopping the platform');

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** The schemas the billing run writes: all five services'. */
const SERVICE_SCHEMAS = ['accounts', 'subscriptions', 'invoicing', 'analytics', 'payments'] as const;

try {
  await ensureDatabase(options.databaseUrl);
  const n = options.subscriptions;
  // The whole-run baseline stages every row that changed in the service schemas: another run on
  // the same database (the default one is shared by every checkout here) would be staged too.
  const runLock = new pg.Client({ connectionString: options.databaseUrl });
  await runLock.connect();
  cleanups.push(() => runLock.end());
  const { rows: locked } = await runLock.query<{ taken: boolean }>(
    "select pg_try_advisory_lock(hashtextextended('bench:billing-run', 0)) as taken",
  );
  if (!locked[0]!.taken)
    throw new Error(
      `another bench:billing-run is using ${new URL(options.databaseUrl).pathname.slice(1)}: wait for it, or name another --database-url`,
    );
  const replay: RunReplay = { prefix: `bench_replay_${randomUUID().slice(0, 8)}`, schemas: SERVICE_SCHEMAS };
  const replayPool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
  cleanups.push(async () => {
    await dropReplay(replayPool, replay);
    await replayPool.end();
  });
  const runs: ShapeRun[] = [];
  for (const shape of options.shapes) {
    runs.push(
      await runShape(
        {
          shape,
          subscriptions: n,
          leadSeconds: options.leadSeconds,
          timeoutSeconds: options.timeoutSeconds,
          databaseUrl: options.databaseUrl,
          natsUrl: options.natsUrl,
          cpuProfDir: shape === 'processes' ? options.cpuProfDir : undefined,
          serverNodeOptions: shape === 'processes' ? options.serverNodeOptions : undefined,
          // The first shape's rows are the whole-run baseline's.
          replay: runs.length === 0 ? { replay, batchInvoices: options.baselineBatch } : undefined,
          log,
        },
        cleanups,
      ),
    );
  }
  const first = runs[0]!;
  const staged = first.staged!;

  // The ratio's baseline: every row the first shape's run wrote, written again in batches.
  log(
    `baseline (the whole run's rows): ${staged.inserted + staged.updated + staged.deleted} rows in ${staged.batches} transactions; per table (inserted/updated/deleted): ${staged.perTable
      .map((t) => `${t.table} ${t.inserted}/${t.updated}/${t.deleted}`)
      .join(', ')}`,
  );
  if (staged.inserted + staged.updated + staged.deleted === 0) throw new Error('the run wrote no rows to replay');
  const baselineSeconds = await replayRunRows(replayPool, replay);
  const replayClient = await replayPool.connect();
  const replayed = await replayProblems(replayClient, replay).finally(() => replayClient.release());
  if (replayed.length > 0) throw new Error(`the whole-run baseline wrote the wrong rows: ${replayed.join('; ')}`);

  // The baselines: the same charge.created messages, the same invoice rows, raw SQL in batches.
  const measureBaseline = async (
    label: string,
    write: (pool: pg.Pool, messages: readonly Buffer[], work: InvoiceBaselineWork, batch: number) => Promise<number>,
  ): Promise<number> => {
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
    log(`baseline (${label}): ${n} invoices by raw SQL, ${options.baselineBatch} per transaction`);
    const start = performance.now();
    const invoiced = await write(
      pool,
      first.chargeMessages,
      { payloadBytes: first.issuedPayloadBytes },
      options.baselineBatch,
    );
    const seconds = (performance.now() - start) / 1000;
    const problems = invoiceProblems(await invoiceCounts(scratch), {
      invoices: n,
      lines: first.chargeLines.n,
      amount: first.chargeLines.amount,
    });
    if (invoiced !== n) problems.push(`baseline reported ${invoiced} invoices`);
    if (problems.length > 0) throw new Error(`the baseline (${label}) wrote the wrong rows: ${problems.join('; ')}`);
    return seconds;
  };
  // The invoicing rows alone, computed from the charge.created messages: two multi-row statements per batch.
  const invoicingSeconds = await measureBaseline('invoicing rows, statements per batch', baselineInvoiceBatches);
  // Until the seventeenth session the only baseline: two statements per invoice in the batch's
  // transaction. Still measured, so that the ratios recorded before compare.
  const perInvoiceSeconds = await measureBaseline('invoicing rows, statements per invoice', baselineInvoiceAll);

  const baselinePerSecond = n / baselineSeconds;
  const invoicingPerSecond = n / invoicingSeconds;
  const perInvoicePerSecond = n / perInvoiceSeconds;
  const figures = (run: ShapeRun) => {
    const invoicesPerSecond = n / run.wall;
    return {
      wall_s: round(run.wall, 2),
      invoices_per_s: round(invoicesPerSecond),
      ratio: round(invoicesPerSecond / baselinePerSecond, 3),
      ratio_invoicing_rows: round(invoicesPerSecond / invoicingPerSecond, 3),
      ratio_per_invoice_statements: round(invoicesPerSecond / perInvoicePerSecond, 3),
      stages: run.stages,
      /** Cores each process (and the database's Postgres backends) kept busy from the due moment to the end. */
      busy_cores: run.busyCores,
      /** The same CPU in milliseconds per due subscription, and its total (comparable when the wall is not). */
      cpu_ms_per_subscription: run.cpuMsPerSubscription,
      /** Cores busy on the whole machine over the same window, whoever used them (null off Linux). */
      machine_busy_cores: run.machineBusyCores ?? null,
      /** Per service, the share of the run's polls that saw a connection of it wait for an advisory lock. */
      advisory_lock_waits: run.advisoryLockWaits.waits,
      advisory_lock_polls: run.advisoryLockWaits.polls,
    };
  };
  const { wall_s, invoices_per_s, ratio, ...firstDetails } = figures(first);
  const inProcess = runs.find((run) => run.shape === 'in-process' && run !== first);
  const result = {
    subscriptions: n,
    card_invoices: first.cards,
    /** The shape of the top-level figures: processes unless only in-process was asked for. */
    shape: first.shape,
    wall_s,
    invoices_per_s,
    baseline_invoices_per_s: round(baselinePerSecond),
    baseline_s: round(baselineSeconds, 2),
    /** What the whole-run baseline wrote: the rows the run inserted, updated and deleted. */
    baseline_rows: {
      inserted: staged.inserted,
      updated: staged.updated,
      deleted: staged.deleted,
      after_wall: staged.afterWall,
      transactions: staged.batches,
    },
    /** The invoicing rows alone, computed from the messages, two multi-row statements per batch. */
    baseline_invoicing_rows_invoices_per_s: round(invoicingPerSecond),
    baseline_invoicing_rows_s: round(invoicingSeconds, 2),
    /** The baseline of the sessions before: the invoicing rows, two statements per invoice. */
    baseline_per_invoice_statements_invoices_per_s: round(perInvoicePerSecond),
    baseline_per_invoice_statements_s: round(perInvoiceSeconds, 2),
    ratio,
    ...firstDetails,
    ...(inProcess ? { in_process: figures(inProcess) } : {}),
    load: round(loadavg()[0] ?? 0, 2),
    cores: availableParallelism(),
    node: process.version,
  };
  const table = (run: ShapeRun) => {
    const shown = figures(run);
    return `${run.shape}: ${run.label}

| stage | items | first done (s after due) | all done (s) | items/s from due | items/s first→last | lag p50 / p99 after the previous stage (s) | p50 / p99 after due (s) |
|---|---|---|---|---|---|---|---|
${shown.stages.map((s) => `| ${s.stage} | ${s.items} | ${s.first_s} | ${s.last_s} | ${s.per_s} | ${s.sustained_per_s} | ${s.p50_s} / ${s.p99_s} | ${s.since_due_p50_s} / ${s.since_due_p99_s} |`).join('\n')}

busy cores from the due moment to the end: ${Object.entries(shown.busy_cores)
      .map(([name, used]) => `${name} ${used}`)
      .join(', ')}; the machine ${shown.machine_busy_cores ?? 'n/a'} of ${availableParallelism()}
CPU per subscription (ms): ${Object.entries(shown.cpu_ms_per_subscription)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}
waiting for an advisory lock (share of ${shown.advisory_lock_polls} polls; connections waiting on average): ${
      Object.entries(shown.advisory_lock_waits)
        .map(([name, waits]) => `${name} ${waits.polls_waiting} (${waits.mean_waiting})`)
        .join(', ') || 'none'
    }
end to end: ${shown.wall_s} s, ${shown.invoices_per_s} invoices/s, ratio ${shown.ratio}`;
  };
  console.log(`billing run: ${n} due subscriptions (${first.cards} paying by card), ${result.cores} cores, load ${result.load}

${runs.map(table).join('\n\n')}

baseline (the whole run's rows, raw SQL: ${staged.inserted} inserted, ${staged.updated} updated, ${staged.deleted} deleted, in ${staged.batches} transactions of equal numbers of rows (about ${options.baselineBatch} invoices' worth each), a multi-row statement per table and kind of write): ${result.baseline_s} s, ${result.baseline_invoices_per_s} invoices/s
the invoicing rows alone, computed from the charge.created messages, two multi-row statements per ${options.baselineBatch}: ${result.baseline_invoicing_rows_s} s, ${result.baseline_invoicing_rows_invoices_per_s} invoices/s, ratio ${firstDetails.ratio_invoicing_rows}
the invoicing rows by two statements per invoice (the baseline until the seventeenth session): ${result.baseline_per_invoice_statements_s} s, ${result.baseline_per_invoice_statements_invoices_per_s} invoices/s, ratio ${firstDetails.ratio_per_invoice_statements}
ratio (${first.shape}): ${result.ratio} (target: 100,000 in ≤ 60 s, ≥ 1,700 invoices/s, ratio ≥ 0.5)`);
  if (options.json) console.log(JSON.stringify(result));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
  process.exit(state.exitCode);
}
