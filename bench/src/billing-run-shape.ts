import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNatsServer } from '@billing/testing';
import pg from 'pg';
import { AdvisoryLockSampler, type AdvisoryLockWaits } from './advisory-lock-waits.js';
import type { BenchPlatform } from './bench-platform.js';
import { type StageLag, stageLags } from './billing-run-lag.js';
import type { RunShape } from './billing-run-options.js';
import {
  billingRunProblems,
  billingRunStages,
  NOOP_CARD,
  StagePoller,
  seedBillingRun,
} from './billing-run-scenario.js';
import { monotonicMicros, PHASES_FILE, type PhaseWindow } from './cpu-profile-phases.js';
import { quoteIdentifier } from './database.js';
import { startPlatformProcesses } from './platform-processes.js';
import { waitForQuiet } from './platform-quiet.js';
import {
  busyCoresSince,
  cpuSince,
  cpuSnapshot,
  machineCpu,
  postgresBackendCpu,
  postgresCpuSince,
  type ServerProcess,
} from './process-cpu.js';
import { organizationOutboxEvents } from './run-outbox.js';
import { copySchemaOf, copySchemas, type RunReplay, type StagedRun, stagedSince, stageRunRows } from './run-replay.js';

/**
 * One measured billing run in one shape of the platform (bench:billing-run runs one per shape):
 * start the platform, seed the organization, wait from the due moment until every stage is done,
 * check the rows, read each stage's lag from them, stop the platform. Throws when a check fails.
 */

export interface ShapeRunOptions {
  shape: RunShape;
  subscriptions: number;
  leadSeconds: number;
  timeoutSeconds: number;
  databaseUrl: string;
  /** NATS JetStream to use; unset: a private nats-server with a fresh store for this run. */
  natsUrl: string | undefined;
  /** The processes shape's service processes run with --cpu-prof into this folder. */
  cpuProfDir: string | undefined;
  /** NODE_OPTIONS for the processes shape's gateway and service processes. */
  serverNodeOptions: string | undefined;
  /**
   * Keep the run's rows for the whole-run baseline (run-replay.ts): the schemas are copied just
   * before the subscriptions are written, the rows the run changed staged after it, in batches of
   * `batchInvoices` invoices' worth.
   */
  replay?: { replay: RunReplay; batchInvoices: number };
  log(message: string): void;
}

export interface StageFigures extends StageLag {
  stage: string;
  items: number;
  /** Seconds after the due moment when the poller first saw an item / all items done. */
  first_s: number;
  last_s: number;
  per_s: number;
  sustained_per_s: number;
}

export interface ShapeRun {
  shape: RunShape;
  label: string;
  cards: number;
  /** Seconds from the due moment until every stage was seen done. */
  wall: number;
  stages: StageFigures[];
  /** Cores each process (and the database's Postgres backends) kept busy from the due moment to the end. */
  busyCores: Record<string, number>;
  /**
   * The same CPU per due subscription, in milliseconds, and their `total`: what the run costs
   * whatever the wall, so that runs on a saturated machine (where the wall follows the total) compare.
   */
  cpuMsPerSubscription: Record<string, number>;
  /** Cores busy on the whole machine from the due moment to the end, whoever used them (undefined off Linux). */
  machineBusyCores: number | undefined;
  /**
   * Per service (application_name), how often the run's polls saw its connections wait for an
   * advisory lock (analytics' organization lock: its consumers' serial turn), and how many polls.
   */
  advisoryLockWaits: { polls: number; waits: Record<string, AdvisoryLockWaits> };
  /** The run's charge.created messages, for the baseline to invoice the same charges. */
  chargeMessages: Buffer[];
  /** Lines and amount of the run's charges, which the baseline's rows must add up to. */
  chargeLines: { n: number; amount: string };
  /** Average bytes of an invoice.issued payload (the baseline writes outbox rows of that size). */
  issuedPayloadBytes: number;
  /** The rows the run wrote, staged for the whole-run baseline (with `replay`). */
  staged?: StagedRun & {
    /** Staged rows whose last write came after the wall's end (the platform settling: outbox marks, read models). */
    afterWall: number;
  };
}

/**
 * How often the run's progress is counted: every count costs what changed since the last one
 * (StagePoller), so a quarter of a second whatever the size of the run.
 */
const POLL_MS = 250;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * `interrupted`: the bench's cleanups, run on Ctrl-C; while the shape runs, they stop its
 * platform too. At its end the shape cleans up itself (the next shape starts on a quiet machine).
 */
export async function runShape(
  options: ShapeRunOptions,
  interrupted: Array<() => Promise<unknown>>,
): Promise<ShapeRun> {
  // Cleanups of this run, run newest first, also when it fails; a failing one fails the run (a
  // platform that does not stop cleanly is a finding), unless the run failed first.
  const cleanups: Array<() => Promise<unknown>> = [];
  const failures: unknown[] = [];
  const cleanUp = async () => {
    for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop())
      await cleanup().catch((error: unknown) => failures.push(error));
  };
  interrupted.push(cleanUp);
  let outcome: { run: ShapeRun } | { error: unknown };
  try {
    outcome = { run: await measure(options, cleanups) };
  } catch (error) {
    outcome = { error };
  }
  interrupted.splice(interrupted.indexOf(cleanUp), 1);
  await cleanUp();
  for (const failure of failures) options.log(`${options.shape}: cleanup failed: ${String(failure)}`);
  if ('error' in outcome) throw outcome.error;
  if (failures.length > 0) throw failures[0];
  return outcome.run;
}

async function measure(options: ShapeRunOptions, cleanups: Array<() => Promise<unknown>>): Promise<ShapeRun> {
  const { log } = options;
  let natsUrl = options.natsUrl;
  // The private broker's CPU is the run's too (busy cores); a broker named by --nats-url is not measured.
  const broker: ServerProcess[] = [];
  if (!natsUrl) {
    const nats = await startNatsServer();
    cleanups.push(() => nats.dispose());
    natsUrl = nats.url;
    if (nats.pid !== undefined) broker.push({ name: 'nats-server', pid: nats.pid });
  }
  // A const: the seeding's beforeSubscriptions closure below waits on this broker.
  const brokerUrl = natsUrl;
  const platform = await startPlatform(options, brokerUrl, cleanups);
  log(`${options.shape}: ${platform.label} started`);
  const org = platform.organizationId;
  const db = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  cleanups.push(() => db.end());
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query(sql, params)).rows[0] as Record<string, string | null>;

  const n = options.subscriptions;
  log(`${options.shape}: seeding ${n / 2} accounts through the API, 6 plan terms, ${n} due subscriptions`);
  const seedStart = performance.now();
  const replay = options.replay?.replay;
  const seededRun = await seedBillingRun(platform, db, {
    subscriptions: n,
    leadSeconds: options.leadSeconds,
    card: NOOP_CARD,
    beforeSubscriptions: replay
      ? async () => {
          // The seeding's own events settled first: what they still write is not the run's.
          await waitForQuiet(db, brokerUrl, replay.schemas);
          const copyStart = performance.now();
          const client = await db.connect();
          try {
            await copySchemas(client, replay);
            await checkpoint(client, log);
          } finally {
            client.release();
          }
          log(`copied the schemas for the baseline in ${((performance.now() - copyStart) / 1000).toFixed(1)} s`);
          return `${quoteIdentifier(copySchemaOf(replay, 'subscriptions'))}.subscription`;
        }
      : undefined,
  });
  const { due, cards } = seededRun;
  const seeded = seededRun.seeded.getTime();
  log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s; due at ${due.toISOString()}`);
  // The clock starts at the due moment, or when the rows were committed if that came later.
  const start = Math.max(due.getTime(), seeded);
  await sleep(start - Date.now());
  // CPU of each process over the run: where the time goes (the stage whose process is busiest).
  const database = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1));
  const measured = [...platform.servers, ...broker];
  const cpuBefore = cpuSnapshot(measured);
  const machineBefore = machineCpu();
  const startMicros = monotonicMicros();
  const postgresBefore = postgresBackendCpu(database);

  const stages = billingRunStages(n, cards);
  const poller = new StagePoller(db, org, due);
  const lockWaits = new AdvisoryLockSampler(db, database);
  const deadline = start + options.timeoutSeconds * 1000;
  let lastReport = Date.now();
  for (;;) {
    await poller.poll(stages, start);
    await lockWaits.sample();
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
  const cpu = cpuSince(cpuBefore, measured);
  const machineBusyCores = busyCoresSince(machineBefore);
  // Transactions from here on are the platform settling after the wall (for `staged.afterWall`).
  const wallEndTransaction = (await one('select pg_snapshot_xmax(pg_current_snapshot())::text as xid')).xid!;
  if (options.cpuProfDir) {
    // cpu-profile-summary then counts only the samples taken between the due moment and the end.
    const phases: PhaseWindow[] = [{ start: startMicros, end: monotonicMicros() }];
    writeFileSync(join(options.cpuProfDir, PHASES_FILE), `${JSON.stringify(phases)}\n`);
  }
  const postgresCpu = postgresCpuSince(postgresBefore, database);
  const wallSeconds = (Date.now() - start) / 1000;
  const used = [...cpu, ['postgres', postgresCpu] as const];
  const busyCores = Object.fromEntries(used.map(([name, micros]) => [name, round(micros / 1e6 / wallSeconds, 2)]));
  const msPerSubscription = (micros: number) => round(micros / 1000 / n, 3);
  const cpuMsPerSubscription = Object.fromEntries([
    ...used.map(([name, micros]) => [name, msPerSubscription(micros)] as const),
    ['total', msPerSubscription(used.reduce((sum, [, micros]) => sum + micros, 0))] as const,
  ]);
  log(`${options.shape}: every stage done ${wall.toFixed(1)} s after the due moment; checking`);

  const { problems, issuedPayloadBytes } = await billingRunProblems(db, org, {
    subscriptions: n,
    cards,
    seeded: seededRun.seeded,
  });
  if (problems.length > 0) throw new Error(`the billing run (${options.shape}) is wrong: ${problems.join('; ')}`);
  log(
    `${options.shape}: checked: ${n} invoices numbered 1..${n}, subtotals per currency = the charges, ${n} invoice_sent activities, ${n} invoice.issued rows, ${cards} card invoices charged once each`,
  );

  const lags = await stageLags(db, org, seededRun);
  const figures = stages.map((stage, k) => {
    const lag = lags[k]!;
    if (lag.timed !== stage.target)
      log(`${options.shape}: the lag of "${stage.name}" covers ${lag.timed} of its ${stage.target} items`);
    return {
      stage: stage.name,
      items: stage.target,
      first_s: round(stage.first ?? 0, 2),
      last_s: round(stage.last!, 2),
      per_s: round(stage.target / stage.last!),
      sustained_per_s: round(stage.target / Math.max(0.25, stage.last! - (stage.first ?? 0))),
      ...lag,
    };
  });

  const chargeEvents = await organizationOutboxEvents(db, {
    schema: 'subscriptions',
    subject: 'subscriptions.charge.created',
    organizationId: org,
    since: new Date(seeded - 1000),
    withData: true,
  });
  const chargeMessages = chargeEvents.map((event) => event.data!);
  if (chargeMessages.length !== n)
    throw new Error(`${chargeMessages.length} charge.created messages of the run, expected ${n}`);
  const lines = await one(
    `select sum(jsonb_array_length(lines))::text as n, sum(amount)::numeric(20,2)::text as amount
       from subscriptions.charge where organization_id = $1`,
    [org],
  );
  let staged: ShapeRun['staged'];
  if (options.replay) {
    await waitForQuiet(db, brokerUrl, options.replay.replay.schemas);
    const client = await db.connect();
    try {
      const stageStart = performance.now();
      const batches = Math.ceil(n / options.replay.batchInvoices);
      const rows = await stageRunRows(client, options.replay.replay, batches);
      await checkpoint(client, log);
      staged = { ...rows, afterWall: await stagedSince(client, options.replay.replay, BigInt(wallEndTransaction)) };
      log(
        `staged the run's rows for the baseline in ${((performance.now() - stageStart) / 1000).toFixed(1)} s: ${rows.inserted} inserted, ${rows.updated} updated, ${rows.deleted} deleted (${staged.afterWall} last written after the wall)`,
      );
    } finally {
      client.release();
    }
  }
  return {
    shape: options.shape,
    label: platform.label,
    cards,
    wall,
    stages: figures,
    busyCores,
    cpuMsPerSubscription,
    machineBusyCores: machineBusyCores === undefined ? undefined : round(machineBusyCores, 2),
    advisoryLockWaits: lockWaits.result(),
    chargeMessages,
    chargeLines: { n: Number(lines.n), amount: lines.amount ?? '0' },
    issuedPayloadBytes,
    staged,
  };
}

/**
 * Writes out what the copy or the staging dirtied, so that a checkpoint they would cause does not
 * fall into the next measured window. Needs superuser (or pg_checkpoint); without it, says so.
 */
async function checkpoint(client: pg.PoolClient, log: (message: string) => void): Promise<void> {
  try {
    await client.query('checkpoint');
  } catch (error) {
    log(`no checkpoint after the baseline's copy or staging (${String(error)}): one may fall into the run`);
  }
}

/** The platform in the run's shape, its stop (and its files' removal) among the cleanups. */
async function startPlatform(
  options: ShapeRunOptions,
  natsUrl: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<BenchPlatform> {
  if (options.shape === 'processes') {
    const platform = await startPlatformProcesses({
      databaseUrl: options.databaseUrl,
      natsUrl,
      analytics: true,
      payments: true,
      cpuProfDir: options.cpuProfDir,
      nodeOptions: options.serverNodeOptions,
      log: options.log,
    });
    cleanups.push(() => platform.stop());
    return platform;
  }
  // Loaded only for this shape: it brings every service's module into the bench process.
  const { startInProcessPlatform } = await import('./platform.js');
  // Its mails (.eml files) go to a folder of its own, removed afterwards.
  const dataDir = mkdtempSync(join(tmpdir(), 'billing-run-in-process-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const platform = await startInProcessPlatform(options.databaseUrl, { natsUrl, dataDir });
  cleanups.push(() => platform.stop());
  return platform;
}
