import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { migrate, openOrm } from '@billing/db';
import { processAllDue, subscriptionsEntities, subscriptionsMigrations } from '@billing/subscriptions';
import pg from 'pg';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { busyCoresSince, machineCpu, postgresBackendCpu, postgresCpuSince, processCpuMicros } from './process-cpu.js';
import { type BaselineWork, baselineRenewAll } from './renewal-baseline.js';
import { parseRenewalOptions, type RenewalOptions } from './renewal-options.js';
import { startCpuProfile } from './renewal-profile.js';
import {
  formatRenewalReport,
  phaseLine,
  type RenewalPhase,
  type RenewalSide,
  summarizeRenewals,
} from './renewal-report.js';
import {
  countProblems,
  EVENTS_PER_RENEWAL,
  type PhaseCounts,
  phaseCounts,
  RENEWAL,
  seedCatalog,
  seedDueSubscriptions,
} from './renewal-seed.js';

/**
 * Benchmark: N due subscriptions renewed by the subscriptions service's scheduler (processAllDue:
 * claim, engine, charges, subscription updates, outbox events) against a raw-SQL baseline writing
 * the same rows (renewal-baseline.ts), in one run, in a throwaway schema, each phase on a freshly
 * seeded identical set. Both run in this process, one phase at a time. Prints subscriptions/s, CPU
 * per subscription and the ratio; exits 1 when a phase wrote other rows than N renewals.
 */

type Orm = Awaited<ReturnType<typeof openOrm>>;

const options: RenewalOptions = optionsOrExit(() => parseRenewalOptions(process.argv.slice(2), process.env));
// Ctrl-C or a kill runs the cleanups before leaving.
const { log, cleanups, runCleanups, state } = benchRun('bench:renewals', 'dropping the schema');

// Sizes of the scheduler's outbox payloads at the time of writing; replaced by the ones measured in
// the same run whenever the scheduler runs before the baseline (always, unless --only baseline).
const payloadBytes: BaselineWork['payloadBytes'] = { chargeCreated: 1100, subscriptionChanged: 1500 };

try {
  await ensureDatabase(options.databaseUrl);
  const database = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1));
  const schema = `bench_renewals_${randomUUID().slice(0, 8)}`;
  const connect = () => ({ connectionString: options.databaseUrl, options: `-c search_path=${schema}` });

  log(`migrating the throwaway schema ${schema}`);
  const orms: Orm[] = [];
  const openReplica = async () => {
    const orm = await openOrm({
      clientUrl: options.databaseUrl,
      schema,
      entities: subscriptionsEntities,
      migrations: subscriptionsMigrations,
    });
    orms.push(orm);
    return orm;
  };
  cleanups.push(async () => {
    for (const orm of orms) await orm.close(true);
  });
  await migrate(await openReplica());
  const admin = new pg.Client(connect());
  await admin.connect();
  cleanups.push(async () => {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  });
  const largest = Math.max(options.subscriptions, options.warmup);
  await seedCatalog(admin, largest);
  while (orms.length < options.replicas) await openReplica();
  // One pool per baseline worker, like one ORM per replica (same size as openOrm's default).
  const pools = Array.from({ length: options.replicas }, () => new pg.Pool({ ...connect(), max: 10 }));
  cleanups.push(() => Promise.all(pools.map((pool) => pool.end())));

  const run: Record<RenewalSide, () => Promise<number[]>> = {
    scheduler: () =>
      Promise.all(
        orms.map((orm) =>
          processAllDue(orm, { now: RENEWAL, testClockOrganization: null, batchSize: options.batchSize }),
        ),
      ),
    baseline: () =>
      Promise.all(
        pools.map((pool) => baselineRenewAll(pool, { now: RENEWAL, batchSize: options.batchSize, payloadBytes })),
      ),
  };

  /** Seeds `count` due subscriptions, lets one side renew them, and checks and measures what it wrote. */
  const phase = async (side: RenewalSide, round: number, count: number, profile: boolean): Promise<RenewalPhase> => {
    await seedDueSubscriptions(admin, count);
    const stopProfile = profile ? await startCpuProfile(options.cpuProfDir!, `scheduler-round${round}`) : undefined;
    const postgresBefore = postgresBackendCpu(database);
    const machineBefore = machineCpu();
    const cpuBefore = processCpuMicros(process.pid);
    const start = performance.now();
    const claimed = (await run[side]()).reduce((sum, n) => sum + n, 0);
    const seconds = (performance.now() - start) / 1000;
    const cpu = processCpuMicros(process.pid) - cpuBefore;
    const busyCores = busyCoresSince(machineBefore);
    const postgres = postgresBackendCpu(database).size > 0 ? postgresCpuSince(postgresBefore, database) : undefined;
    if (stopProfile) log(`profile: ${await stopProfile()}`);
    const counts = await phaseCounts(admin);
    const problems = countProblems(counts, count);
    if (claimed !== count) problems.push(`workers reported ${claimed} renewals, expected ${count}`);
    if (problems.length > 0) throw new Error(`${side} phase wrote the wrong rows: ${problems.join('; ')}`);
    return {
      side,
      round,
      subscriptions: count,
      seconds,
      perSecond: count / seconds,
      cpuUsPerSubscription: cpu / count,
      postgresUsPerSubscription: postgres === undefined ? undefined : postgres / count,
      busyCores,
      counts,
    };
  };

  const sides: RenewalSide[] = options.sides === 'both' ? ['scheduler', 'baseline'] : [options.sides];
  const adoptPayloadSizes = (counts: PhaseCounts) => {
    payloadBytes.chargeCreated = counts.chargeCreatedBytes;
    payloadBytes.subscriptionChanged = counts.subscriptionChangedBytes;
  };
  if (options.warmup > 0) {
    for (const side of sides) {
      const warmup = await phase(side, 0, options.warmup, false);
      log(`warm-up ${side}: ${warmup.perSecond.toFixed(0)} subscriptions/s (${options.warmup}, not counted)`);
      if (side === 'scheduler') adoptPayloadSizes(warmup.counts);
    }
  }

  const phases: RenewalPhase[] = [];
  const loadBefore = loadavg();
  // Alternate the sides so slow drift (autovacuum, checkpoints, neighbours) hits both alike.
  for (let round = 1; round <= options.rounds; round++) {
    for (const side of sides) {
      const result = await phase(side, round, options.subscriptions, side === 'scheduler' && !!options.cpuProfDir);
      if (side === 'scheduler') adoptPayloadSizes(result.counts);
      phases.push(result);
      log(phaseLine(result));
    }
  }
  const amounts = new Set(phases.map((result) => result.counts.amount));
  if (amounts.size > 1) throw new Error(`the sides charged different totals: ${[...amounts].join(' vs ')}`);

  const summary = summarizeRenewals(
    {
      subscriptions: options.subscriptions,
      batchSize: options.batchSize,
      replicas: options.replicas,
      rounds: options.rounds,
      warmup: options.warmup,
      node: process.version,
      cores: availableParallelism(),
    },
    { before: loadBefore, after: loadavg() },
    phases,
  );
  console.log(formatRenewalReport(summary));
  log(`every phase: ${options.subscriptions} charges and ${options.subscriptions * EVENTS_PER_RENEWAL} outbox rows`);
  if (options.cpuProfDir) log(`summarise: npx node bench/dist/cpu-profile-summary.js ${options.cpuProfDir}`);
  if (options.json) console.log(JSON.stringify(summary));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
}
process.exit(state.exitCode);
