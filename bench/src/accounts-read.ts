import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startNatsServer } from '@billing/testing';
import { startBaselineServer } from './baseline-server.js';
import { type BenchPlatform, SetupError } from './bench-platform.js';
import { benchRun, optionsOrExit } from './command-line.js';
import { monotonicMicros, PHASES_FILE } from './cpu-profile-phases.js';
import { analyzeTables, ensureDatabase } from './database.js';
import { type PhaseResult, runLoad } from './load-runner.js';
import { type BenchOptions, parseOptions } from './options.js';
import { checkParity } from './parity.js';
import { startPlatformProcesses } from './platform-processes.js';
import { type ServerProcess, waitForQuiet } from './process-cpu.js';
import { formatReport, type SideRuns, summarize } from './report.js';
import { createScratchAccounts } from './scratch-accounts.js';
import { ACCOUNT_SHAPE, seedAccountSetsViaApi, waitForReadModel } from './seed-account-sets.js';
import { accountCodes, accountPath, apiHeaders, seedAccountsViaApi } from './seed-accounts.js';

/**
 * Benchmark: GET /api/v1/accounts/{code}/ through gateway + gRPC + the services it reaches against a
 * bare express + pg handler running the same statements, in one run on one machine with the same
 * load. By default the platform runs in its production shape (the gateway and each service as
 * separate processes); --in-process runs it inside this process. Prints requests/s, p50/p99, server CPU per
 * request and the throughput ratio; exits non-zero only when requests failed or the run failed.
 */

// Same as the accounts service's pool (libs/db openPool default `max` 10).
const POOL_SIZE = 10;
// When a phase ends the load process closes its sockets, but a server still works off the requests
// it had already read (at 32 connections and p99 ~0.5 s, well under a second of work). Waiting this
// long keeps that tail out of the next phase and out of the platform's shutdown.
const SETTLE_MS = 1_500;
// The accounts tables the measured statement reads (the account, its organization, recipients and
// gateway accounts, and the read model its subscription_set, draftinvoiceline_set and
// paymentcard_set come from); analyzed after seeding (see analyzeTables).
const ACCOUNT_TABLES = [
  'account',
  'organization',
  'recipient',
  'payment_gateway_account',
  'account_subscription',
  'account_draft_line',
  'account_payment_card',
] as const;
// How long the platform may take to work off what seeding realistic accounts left behind.
const REALISTIC_QUIET_TIMEOUT_MS = 300_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

const options: BenchOptions = optionsOrExit(() => parseOptions(process.argv.slice(2), process.env));
// Ctrl-C or a kill runs the cleanups before leaving.
const { log, cleanups, runCleanups, state } = benchRun('bench', 'stopping');

const mode = options.baselineOnly ? 'baseline-only' : options.inProcess ? 'in-process' : 'processes';
try {
  await ensureDatabase(options.databaseUrl);
  const codes = accountCodes(options.accounts);
  const paths = codes.map(accountPath);

  let schema: string;
  let organizationId: string;
  let platform: BenchPlatform | undefined;
  if (options.baselineOnly) {
    log(`creating a scratch schema with ${codes.length} accounts`);
    const scratch = await createScratchAccounts(options.databaseUrl, codes);
    cleanups.push(scratch.drop);
    ({ schema, organizationId } = scratch);
  } else {
    if (options.inProcess) {
      log('starting the platform in this process (--in-process)');
      // Loaded only here so the other modes run without the platform packages in this process.
      const { startInProcessPlatform } = await import('./platform.js');
      platform = await startInProcessPlatform(options.databaseUrl);
    } else {
      // A private server unless one is named: the services' durable consumers are named after their
      // schemas, so on a shared server they would share them with any other platform there (other
      // runs, other benchmarks), take its events and work them off during the phases.
      let natsUrl = options.natsUrl;
      if (!natsUrl) {
        const nats = await startNatsServer();
        cleanups.push(() => nats.dispose());
        natsUrl = nats.url;
      }
      log(`starting the gateway and service processes (events on ${natsUrl})`);
      platform = await startPlatformProcesses({
        databaseUrl: options.databaseUrl,
        natsUrl,
        cpuProfDir: options.cpuProfDir,
        nodeOptions: options.serverNodeOptions,
        log,
        // Payments registers the accounts' cards and tells accounts' read model of them.
        payments: true,
      });
    }
    cleanups.push(platform.stop);
    ({ organizationId } = platform);
    schema = platform.accountsSchema;
    log(`seeding ${codes.length} accounts through POST /api/v1/accounts/`);
    const seedStart = performance.now();
    const accounts = await seedAccountsViaApi(platform.gatewayUrl, platform.token, codes);
    if (!options.emptyAccounts) {
      const { recipients, cards, subscriptions, draftLines } = ACCOUNT_SHAPE;
      log(
        `giving each ${recipients} recipients, ${cards} card, ${subscriptions} subscriptions and ${draftLines} ` +
          'draft lines through the API',
      );
      await seedAccountSetsViaApi(platform.gatewayUrl, platform.token, accounts);
      await waitForReadModel(options.databaseUrl, schema, organizationId, codes.length);
    }
    log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    await analyzeTables(options.databaseUrl, schema, ACCOUNT_TABLES);
    // Seeding leaves background work behind (the outbox relays publishing an event per write, and
    // the consumers of those events): let it finish before the first phase. Realistic accounts
    // leave eleven times the events of empty ones; on a loaded machine their consumers took more
    // than a minute (a run at load 15-20 was still at 26 % of a core after 60 s).
    const quiet = await waitForQuiet(platform.servers, {
      timeoutMs: options.emptyAccounts ? 60_000 : REALISTIC_QUIET_TIMEOUT_MS,
    });
    log(
      `platform ${quiet.quiet ? 'quiet' : 'still busy'} after ${(quiet.waitedMs / 1000).toFixed(1)} s ` +
        `(${(quiet.cores * 100).toFixed(0)}% of a core over the last second)`,
    );
  }

  // The baseline runs in this process, which does nothing else during a phase (the load runs in
  // its own process), so its CPU time is the baseline's.
  const baseline = await startBaselineServer({
    databaseUrl: options.databaseUrl,
    schema,
    organizationId,
    poolSize: POOL_SIZE,
  });
  cleanups.push(baseline.stop);

  // Both sides get the same request bytes; the baseline ignores the headers.
  const headers = apiHeaders(platform?.token ?? 'baseline-only');
  const baselineTarget: Target = {
    label: 'baseline (express + pg)',
    origin: baseline.url,
    servers: [{ name: 'baseline', pid: process.pid }],
  };
  const platformTarget: Target | undefined = platform && {
    label: platform.label,
    origin: platform.gatewayUrl,
    servers: platform.servers,
  };
  for (const note of await checkParity(paths[0]!, headers, baselineTarget, platformTarget)) log(`note: ${note}`);

  const benchDatabase = decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1));
  const targets = [baselineTarget, platformTarget].filter((t) => t !== undefined);
  const sides: SideRuns[] = targets.map((target) => ({ label: target.label, runs: [], warmupFailures: 0 }));
  const phase = async (target: Target, durationSeconds: number): Promise<PhaseResult> => {
    const result = await runLoad(
      { origin: target.origin, paths, headers, connections: options.connections, durationSeconds },
      target.servers,
      benchDatabase,
    );
    await settle();
    return result;
  };

  // Measured platform phases on the monotonic clock V8's profiles use, so that
  // cpu-profile-summary.js can leave out start-up, seeding and the baseline's phases.
  const platformPhases: { start: number; end: number }[] = [];
  const loadBefore = loadavg();
  // Alternate baseline and platform so slow drift (thermal, autovacuum, neighbours) hits both alike.
  for (let round = 1; round <= options.rounds; round++) {
    for (const [index, target] of targets.entries()) {
      const side = sides[index]!;
      if (options.warmupSeconds > 0) {
        const warmup = await phase(target, options.warmupSeconds);
        side.warmupFailures += warmup.errors + warmup.non2xx;
      }
      const start = monotonicMicros();
      const result = await phase(target, options.durationSeconds);
      if (target === platformTarget) platformPhases.push({ start, end: monotonicMicros() });
      side.runs.push(result);
      log(
        `round ${round} ${target.label}: ${result.requestsPerSecond.toFixed(0)} req/s, ` +
          `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, server CPU ${cpuBreakdown(result)} µs/req, ` +
          `Postgres ${result.postgresCpuUsPerRequest?.toFixed(0) ?? 'n/a'} µs/req, ` +
          `load generator ${result.loadCpuUsPerRequest.toFixed(0)} µs/req, ` +
          `machine ${result.machineBusyCores?.toFixed(2) ?? 'n/a'} cores busy, ` +
          `errors ${result.errors}, non-2xx ${result.non2xx}`,
      );
    }
  }

  if (options.cpuProfDir) {
    writeFileSync(join(options.cpuProfDir, PHASES_FILE), `${JSON.stringify(platformPhases)}\n`);
    log(`CPU profiles in ${options.cpuProfDir}: npx node bench/dist/cpu-profile-summary.js ${options.cpuProfDir}/*`);
  }

  const summary = summarize(
    {
      mode,
      loadAverage: { before: loadBefore, after: loadavg() },
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
      accounts: options.accounts,
      accountShape: options.emptyAccounts ? 'empty' : 'realistic',
    },
    sides[0]!,
    sides[1],
  );
  console.log(formatReport(summary));
  if (options.json) console.log(JSON.stringify(summary));
  if (summary.failedRequests > 0) state.exitCode = 1;
} catch (error) {
  console.error(error instanceof SetupError ? `[bench] ${error.message}` : error);
  state.exitCode = 1;
} finally {
  await runCleanups();
}
// Explicit exit: a handle the platform forgot to close must not keep a finished benchmark alive.
process.exit(state.exitCode);

interface Target {
  label: string;
  origin: string;
  /** The processes whose CPU time a phase of this side is charged with. */
  servers: ServerProcess[];
}

function cpuBreakdown(result: PhaseResult): string {
  const parts = Object.entries(result.serverCpuUsPerRequestByProcess);
  const total = result.serverCpuUsPerRequest.toFixed(0);
  if (parts.length < 2) return total;
  return `${total} (${parts.map(([name, micros]) => `${name} ${micros.toFixed(0)}`).join(' + ')})`;
}
