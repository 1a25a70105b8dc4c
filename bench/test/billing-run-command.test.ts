/**
 * `npm run bench:billing-run` as a user types it (the npm script: build, then the built bench), on a
 * small run: 20 subscriptions in both shapes (a process per service, then everything in the bench
 * process; NATS JetStream in both), on a database of its own. The run must pass its own checks
 * (it exits 1 otherwise) and print one JSON line with the production shape's figures at the top,
 * the in-process shape's under `in_process`, and every stage's lag taken from all of its items.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDatabaseUrl } from '@billing/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureDatabase, quoteIdentifier, withClient } from '../src/database.js';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));
const SUBSCRIPTIONS = 20;
// 30 % of the accounts pay by card, both of their subscriptions: accounts 0-2 of 10.
const CARD_INVOICES = 6;
// The npm script builds what is stale first (nothing, after the suite's build: it rewrites no dist/
// file other tests run from); a loaded 2-core machine.
const RUN_TIMEOUT_MS = 5 * 60_000;
// Creating and dropping a database wait for a checkpoint, slow on a loaded machine.
const HOOK_TIMEOUT_MS = 60_000;

const SERVICE_PROCESSES = ['accounts', 'subscriptions', 'invoicing', 'analytics', 'payments', 'gateway'];

const STAGES = [
  ['renewed (charges by the scheduler)', SUBSCRIPTIONS],
  ['invoiced (issued with a number)', SUBSCRIPTIONS],
  ['invoice_sent activities (analytics)', SUBSCRIPTIONS],
  ['card payments succeeded (payments)', CARD_INVOICES],
  ['card invoices paid (invoicing)', CARD_INVOICES],
  ['invoice_paid activities (analytics)', CARD_INVOICES],
] as const;

interface StageResult {
  stage: string;
  items: number;
  timed: number;
  last_s: number;
  p50_s: number;
  p99_s: number;
  since_due_p50_s: number;
  since_due_p99_s: number;
}

interface ShapeResult {
  wall_s: number;
  invoices_per_s: number;
  ratio: number;
  ratio_invoicing_rows: number;
  ratio_per_invoice_statements: number;
  stages: StageResult[];
  busy_cores: Record<string, number>;
  cpu_ms_per_subscription: Record<string, number>;
  machine_busy_cores: number | null;
  advisory_lock_waits: Record<string, { polls_waiting: number; mean_waiting: number }>;
  advisory_lock_polls: number;
}

let databaseUrl: string;
let databaseName: string;

beforeAll(async () => {
  const url = new URL(testDatabaseUrl());
  databaseName = `billing_run_command_${randomUUID().slice(0, 8)}`;
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  if (!databaseName) return;
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  await withClient(admin.toString(), (client) =>
    client.query(`drop database if exists ${quoteIdentifier(databaseName)} with (force)`),
  );
}, HOOK_TIMEOUT_MS);

const runNpm = (args: string[]) => run('npm', args);
/** `npm run bench:billing-run` as typed, on a small run of its own database, with `options` after. */
const runBillingRun = (...options: string[]) =>
  runNpm([
    'run',
    '-s',
    'bench:billing-run',
    '--',
    '--subscriptions',
    String(SUBSCRIPTIONS),
    '--lead',
    '1',
    '--database-url',
    databaseUrl,
    ...options,
  ]);
// The checkout's Node 24 (the devDependency), as npm scripts run it.
const runNode = (args: string[]) => run(join(CHECKOUT, 'node_modules/.bin/node'), args);

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: CHECKOUT,
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
        timeout: RUN_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * The three baselines' invoices/s: the whole run's rows written again, the invoicing rows computed
 * in batches, the invoicing rows by statements per invoice (the sessions before the eighteenth).
 */
interface Baselines {
  baseline_invoices_per_s: number;
  baseline_invoicing_rows_invoices_per_s: number;
  baseline_per_invoice_statements_invoices_per_s: number;
}

/** The figures every shape reports: its stages in order, each timed over all of its items. */
function expectShape(shape: ShapeResult, servers: string[], baselines: Baselines) {
  expect(shape.stages.map((stage) => [stage.stage, stage.items, stage.timed])).toEqual(
    STAGES.map(([name, items]) => [name, items, items]),
  );
  expect(shape.wall_s).toBe(Math.max(...shape.stages.map((stage) => stage.last_s)));
  expect(shape.invoices_per_s).toBeGreaterThan(0);
  // Each ratio is the shape's invoices/s over its baseline's (both rounded in the JSON, so close to).
  expect(shape.ratio).toBeCloseTo(shape.invoices_per_s / baselines.baseline_invoices_per_s, 2);
  expect(shape.ratio_invoicing_rows).toBeCloseTo(
    shape.invoices_per_s / baselines.baseline_invoicing_rows_invoices_per_s,
    2,
  );
  expect(shape.ratio_per_invoice_statements).toBeCloseTo(
    shape.invoices_per_s / baselines.baseline_per_invoice_statements_invoices_per_s,
    2,
  );
  for (const stage of shape.stages) {
    // Each item's stage follows its previous stage, which follows the due moment.
    expect(0 <= stage.p50_s && stage.p50_s <= stage.p99_s, JSON.stringify(stage)).toBe(true);
    expect(stage.since_due_p50_s >= stage.p50_s && stage.since_due_p99_s >= stage.p99_s, JSON.stringify(stage)).toBe(
      true,
    );
    expect(stage.since_due_p50_s <= stage.since_due_p99_s, JSON.stringify(stage)).toBe(true);
  }
  expect(Object.keys(shape.busy_cores)).toEqual([...servers, 'postgres']);
  // The same CPU per due subscription, each process's and their total (each rounded to a microsecond).
  const perSubscription = shape.cpu_ms_per_subscription;
  expect(Object.keys(perSubscription)).toEqual([...servers, 'postgres', 'total']);
  const parts = [...servers, 'postgres'].map((name) => perSubscription[name]!);
  for (const part of parts) expect(part).toBeGreaterThanOrEqual(0);
  expect(perSubscription.total).toBeGreaterThan(0);
  expect(Math.abs(perSubscription.total! - parts.reduce((sum, part) => sum + part, 0))).toBeLessThanOrEqual(
    0.0005 * (parts.length + 1),
  );
  // This machine is Linux: the whole machine's busy cores are known, at least what the platform used.
  const platformCores = Object.values(shape.busy_cores).reduce((sum, cores) => sum + cores, 0);
  expect(shape.machine_busy_cores).toBeGreaterThanOrEqual(platformCores - 0.05 * servers.length);
  expect(shape.machine_busy_cores).toBeLessThanOrEqual(availableParallelism() + 0.01);
  // Each poll also sampled the services' waits for advisory locks (analytics' organization lock).
  expect(shape.advisory_lock_polls).toBeGreaterThan(0);
  for (const [name, waits] of Object.entries(shape.advisory_lock_waits)) {
    expect(SERVICES, name).toContain(name);
    expect(waits.polls_waiting, name).toBeGreaterThan(0);
    expect(waits.polls_waiting, name).toBeLessThanOrEqual(1);
    // A poll that saw it waiting saw at least one of its connections waiting.
    expect(waits.mean_waiting, name).toBeGreaterThanOrEqual(waits.polls_waiting);
  }
}

/** The services' application_names (their connections' names in pg_stat_activity). */
const SERVICES = ['accounts', 'subscriptions', 'invoicing', 'analytics', 'payments'];

it(
  'runs both shapes by default, checks them and prints the production shape on top, in-process under in_process',
  async () => {
    const { code, stdout, stderr } = await runBillingRun('--json');
    expect(code, stderr.slice(-4000)).toBe(0);
    for (const shape of ['processes', 'in-process'])
      expect(stderr).toContain(
        `${shape}: checked: ${SUBSCRIPTIONS} invoices numbered 1..${SUBSCRIPTIONS}, subtotals per currency = the charges, ${SUBSCRIPTIONS} invoice_sent activities, ${SUBSCRIPTIONS} invoice.issued rows, ${CARD_INVOICES} card invoices charged once each`,
      );
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as ShapeResult &
      Baselines & {
        subscriptions: number;
        card_invoices: number;
        shape: string;
        in_process: ShapeResult;
        baseline_rows: Record<string, number>;
      };
    expect([result.subscriptions, result.card_invoices, result.shape]).toEqual([
      SUBSCRIPTIONS,
      CARD_INVOICES,
      'processes',
    ]);
    expect(result.baseline_invoices_per_s).toBeGreaterThan(0);
    expect(result.baseline_invoicing_rows_invoices_per_s).toBeGreaterThan(0);
    expect(result.baseline_per_invoice_statements_invoices_per_s).toBeGreaterThan(0);
    // The whole-run baseline wrote the production shape's rows again: every subscription renewed
    // (updated), an invoice, a line and a charge each (inserted), nothing deleted, in one batch.
    const { inserted, ...rest } = result.baseline_rows;
    expect(rest).toEqual({ updated: SUBSCRIPTIONS, deleted: 0, after_wall: expect.any(Number), transactions: 1 });
    expect(inserted).toBeGreaterThan(5 * SUBSCRIPTIONS);
    // Rows last written after the wall are among those written.
    expect(rest.after_wall).toBeLessThanOrEqual((inserted ?? 0) + SUBSCRIPTIONS);
    for (const table of ['subscriptions.charge', 'invoicing.invoice', 'invoicing.invoice_line'])
      expect(stderr).toContain(`${table} ${SUBSCRIPTIONS}/0/0`);
    expect(stderr).toContain(`subscriptions.subscription 0/${SUBSCRIPTIONS}/0`);
    // Its copies of the schemas are gone with the run.
    const left = await withClient(databaseUrl, (client) =>
      client.query("select nspname from pg_namespace where nspname like 'bench\\_replay\\_%'"),
    );
    expect(left.rows).toEqual([]);
    // Every service's outbox keeps half of each page free, so the relay's published mark stays on
    // the row's page (libs/events outbox-relay.test.ts shows why).
    const outboxes = await withClient(databaseUrl, (client) =>
      client.query(
        "select n.nspname as schema, c.reloptions as options from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = 'outbox' order by 1",
      ),
    );
    expect(outboxes.rows).toEqual(
      ['accounts', 'analytics', 'invoicing', 'payments', 'subscriptions'].map((schema) => ({
        schema,
        options: ['fillfactor=50'],
      })),
    );
    expectShape(result, [...SERVICE_PROCESSES, 'nats-server'], result);
    expectShape(result.in_process, ['bench process', 'nats-server'], result);
  },
  RUN_TIMEOUT_MS + 60_000,
);

it(
  "refuses a database another bench:billing-run is using (its whole-run baseline would stage that run's rows)",
  async () => {
    const other = await withClient(databaseUrl, async (holder) => {
      await holder.query("select pg_advisory_lock(hashtextextended('bench:billing-run', 0))");
      return runBillingRun('--shape', 'processes');
    });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      `another bench:billing-run is using ${databaseName}: wait for it, or name another --database-url`,
    );
    expect(other.stderr).not.toContain('started');
  },
  RUN_TIMEOUT_MS + 60_000,
);

it(
  '--cpu-prof: a profile per service process and the measured window, which cpu-profile-summary counts alone',
  async () => {
    const profiles = mkdtempSync(join(tmpdir(), 'billing-run-cpu-prof-'));
    try {
      const { code, stderr } = await runBillingRun('--shape', 'processes', '--cpu-prof', profiles);
      expect(code, stderr.slice(-4000)).toBe(0);
      expect(readdirSync(profiles).sort()).toEqual([...SERVICE_PROCESSES, 'platform-phases.json'].sort());
      for (const service of SERVICE_PROCESSES)
        expect(readdirSync(join(profiles, service)).filter((file) => file.endsWith('.cpuprofile'))).toHaveLength(1);
      const windows = JSON.parse(readFileSync(join(profiles, 'platform-phases.json'), 'utf8')) as Array<{
        start: number;
        end: number;
      }>;
      expect(windows).toHaveLength(1);
      // From the due moment to the last stage: at least the poll that saw the run done.
      expect(windows[0]!.end - windows[0]!.start).toBeGreaterThan(0);
      const summary = await runNode(['bench/dist/cpu-profile-summary.js', join(profiles, 'invoicing')]);
      expect(summary.code, summary.stderr).toBe(0);
      expect(summary.stdout).toContain('(during 1 measured platform phase(s))');
    } finally {
      rmSync(profiles, { recursive: true, force: true });
    }
  },
  RUN_TIMEOUT_MS + 60_000,
);
