import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { systemClock } from '@billing/clock';
import { migrate, openOrm } from '@billing/db';
import { type InvoicingDeps, invoicingEntities, invoicingMigrations } from '@billing/invoicing';
import { processAllDue, subscriptionsEntities, subscriptionsMigrations } from '@billing/subscriptions';
import pg from 'pg';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { baselineInvoiceAll, type InvoiceBaselineWork } from './invoice-baseline.js';
import { benchDirectory } from './invoice-directory.js';
import { type InvoiceOptions, parseInvoiceOptions } from './invoice-options.js';
import {
  formatInvoiceReport,
  type InvoicePhase,
  type InvoiceSide,
  invoicePhaseLine,
  summarizeInvoices,
} from './invoice-report.js';
import { chargeMessages, invoiceCounts, invoiceProblems, resetInvoicing } from './invoice-seed.js';
import { serviceInvoiceAll } from './invoice-service.js';
import { busyCoresSince, machineCpu, postgresBackendCpu, postgresCpuSince, processCpuMicros } from './process-cpu.js';
import { startCpuProfile } from './renewal-profile.js';
import { RENEWAL, seedCatalog, seedDueSubscriptions } from './renewal-seed.js';

/**
 * Benchmark: the renewal bench's charges turned into issued invoices. The subscriptions
 * scheduler renews N due subscriptions once (renewal-seed.ts) into a throwaway subscriptions
 * schema; its N charge.created outbox rows (the bytes the relay would publish) are then invoiced
 * in every phase, on a throwaway invoicing schema made by the service's own migrations, by the
 * invoicing service's consumer handler (invoice-service.ts) or by a raw-SQL baseline writing the
 * same rows (invoice-baseline.ts), one transaction per message. Prints invoices/s, CPU per
 * invoice and the ratio; exits 1 when a phase wrote other rows than N issued invoices.
 */

const options: InvoiceOptions = optionsOrExit(() => parseInvoiceOptions(process.argv.slice(2), process.env));
// Ctrl-C or a kill runs the cleanups before leaving.
const { log, cleanups, runCleanups, state } = benchRun('bench:invoices', 'dropping the schemas');

// The size of the service's invoice.issued payloads at the time of writing; replaced by the one
// measured in the same run whenever the service runs before the baseline (always, unless --only baseline).
const baselineWork: InvoiceBaselineWork = { payloadBytes: 1400 };

try {
  await ensureDatabase(options.databaseUrl);
  const database = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1));
  const suffix = randomUUID().slice(0, 8);
  const subscriptionsSchema = `bench_invoices_${suffix}_subscriptions`;
  const invoicingSchema = `bench_invoices_${suffix}_invoicing`;
  const connect = (schema: string) => ({
    connectionString: options.databaseUrl,
    options: `-c search_path=${schema}`,
  });
  const admin = async (schema: string) => {
    const client = new pg.Client(connect(schema));
    await client.connect();
    cleanups.push(async () => {
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });
    return client;
  };

  // 1. The charges: one scheduler run over N due subscriptions, as in bench:renewals.
  log(`renewing ${options.invoices} subscriptions in ${subscriptionsSchema}`);
  const subscriptionsOrm = await openOrm({
    clientUrl: options.databaseUrl,
    schema: subscriptionsSchema,
    entities: subscriptionsEntities,
    migrations: subscriptionsMigrations,
  });
  cleanups.push(() => subscriptionsOrm.close(true));
  await migrate(subscriptionsOrm);
  const subscriptions = await admin(subscriptionsSchema);
  await seedCatalog(subscriptions, options.invoices);
  await seedDueSubscriptions(subscriptions, options.invoices);
  const renewStart = performance.now();
  await processAllDue(subscriptionsOrm, { now: RENEWAL, testClockOrganization: null, batchSize: 200 });
  log(
    `scheduler: ${options.invoices} renewals in ${((performance.now() - renewStart) / 1000).toFixed(2)} s (not part of the ratio)`,
  );
  const charges = await chargeMessages(subscriptions);
  if (charges.messages.length !== options.invoices) {
    throw new Error(`the scheduler wrote ${charges.messages.length} charge.created rows, expected ${options.invoices}`);
  }
  log(`${charges.messages.length} charge.created messages, ${charges.lines} lines, ${charges.amount} DKK`);

  // 2. The invoicing schema, by the service's own migrations; the service's ORM as startService opens it.
  const invoicingOrm = await openOrm({
    clientUrl: options.databaseUrl,
    schema: invoicingSchema,
    entities: invoicingEntities,
    migrations: invoicingMigrations,
  });
  cleanups.push(() => invoicingOrm.close(true));
  await migrate(invoicingOrm);
  const invoicing = await admin(invoicingSchema);
  const deps: InvoicingDeps = { orm: invoicingOrm, clock: systemClock, directory: benchDirectory };
  // One pool for the baseline, the size of openOrm's default pool.
  const pool = new pg.Pool({ ...connect(invoicingSchema), max: 10 });
  cleanups.push(() => pool.end());

  const run: Record<InvoiceSide, (messages: Buffer[]) => Promise<number>> = {
    invoicing: (messages) => serviceInvoiceAll(deps, messages),
    baseline: (messages) => baselineInvoiceAll(pool, messages, baselineWork),
  };

  /** Empties the invoicing schema, lets one side invoice `messages`, and checks and measures what it wrote. */
  const phase = async (
    side: InvoiceSide,
    round: number,
    messages: Buffer[],
    profile: boolean,
  ): Promise<InvoicePhase> => {
    await resetInvoicing(invoicing);
    const expected =
      messages.length === charges.messages.length
        ? { invoices: messages.length, lines: charges.lines, amount: charges.amount }
        : undefined;
    const stopProfile = profile ? await startCpuProfile(options.cpuProfDir!, `invoicing-round${round}`) : undefined;
    const postgresBefore = postgresBackendCpu(database);
    const machineBefore = machineCpu();
    const cpuBefore = processCpuMicros(process.pid);
    const start = performance.now();
    const invoiced = await run[side](messages);
    const seconds = (performance.now() - start) / 1000;
    const cpu = processCpuMicros(process.pid) - cpuBefore;
    const busyCores = busyCoresSince(machineBefore);
    const postgres = postgresBackendCpu(database).size > 0 ? postgresCpuSince(postgresBefore, database) : undefined;
    if (stopProfile) log(`profile: ${await stopProfile()}`);
    const counts = await invoiceCounts(invoicing);
    // The warm-up invoices a prefix of the charges: its totals are not the run's; the counts still hold.
    const problems = expected
      ? invoiceProblems(counts, expected)
      : invoiceProblems(counts, { invoices: messages.length, lines: counts.lines, amount: counts.subtotal });
    if (invoiced !== messages.length)
      problems.push(`${side} reported ${invoiced} invoices, expected ${messages.length}`);
    if (problems.length > 0) throw new Error(`${side} phase wrote the wrong rows: ${problems.join('; ')}`);
    return {
      side,
      round,
      invoices: messages.length,
      seconds,
      perSecond: messages.length / seconds,
      cpuUsPerInvoice: cpu / messages.length,
      postgresUsPerInvoice: postgres === undefined ? undefined : postgres / messages.length,
      busyCores,
      counts,
    };
  };

  const sides: InvoiceSide[] = options.sides === 'both' ? ['invoicing', 'baseline'] : [options.sides];
  if (options.warmup > 0) {
    for (const side of sides) {
      const warmup = await phase(side, 0, charges.messages.slice(0, options.warmup), false);
      log(`warm-up ${side}: ${warmup.perSecond.toFixed(0)} invoices/s (${options.warmup}, not counted)`);
      if (side === 'invoicing') baselineWork.payloadBytes = warmup.counts.issuedEventBytes;
    }
  }

  const phases: InvoicePhase[] = [];
  const loadBefore = loadavg();
  // Alternate the sides so slow drift (autovacuum, checkpoints, neighbours) hits both alike.
  for (let round = 1; round <= options.rounds; round++) {
    for (const side of sides) {
      const result = await phase(side, round, charges.messages, side === 'invoicing' && !!options.cpuProfDir);
      if (side === 'invoicing') baselineWork.payloadBytes = result.counts.issuedEventBytes;
      phases.push(result);
      log(invoicePhaseLine(result));
    }
  }
  const totals = new Set(
    phases.map((result) => `${result.counts.subtotal} + ${result.counts.vat} = ${result.counts.total}`),
  );
  if (totals.size > 1) throw new Error(`the sides invoiced different totals: ${[...totals].join(' vs ')}`);

  const summary = summarizeInvoices(
    {
      invoices: options.invoices,
      rounds: options.rounds,
      warmup: options.warmup,
      node: process.version,
      cores: availableParallelism(),
    },
    { before: loadBefore, after: loadavg() },
    phases,
  );
  console.log(formatInvoiceReport(summary));
  log(
    `every phase: ${options.invoices} issued invoices, numbers 1..n per organization without gaps, ${options.invoices} invoice.issued outbox rows`,
  );
  if (options.cpuProfDir) log(`summarise: npx node bench/dist/cpu-profile-summary.js ${options.cpuProfDir}`);
  if (options.json) console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
}
process.exit(state.exitCode);
