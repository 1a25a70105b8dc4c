import { parseArgs } from 'node:util';
import { boundedInteger, COMMON_FLAGS, exitOnHelp, parseCommandLine } from './command-line.js';

export interface BenchOptions {
  /** Seconds of measured load per phase. */
  durationSeconds: number;
  /** Concurrent HTTP connections (keep-alive) the load generator holds open. */
  connections: number;
  /** Seconds of unrecorded load before each measured phase (JIT, pools, caches). */
  warmupSeconds: number;
  /** Baseline/platform phase pairs; the best phase of each side is compared. */
  rounds: number;
  /** Accounts seeded and spread over by the GETs. */
  accounts: number;
  /**
   * Seed accounts with empty sets (no recipients, subscriptions, draft lines or cards), the shape
   * measured before issue 14, instead of the realistic ones.
   */
  emptyAccounts: boolean;
  databaseUrl: string;
  json: boolean;
  /** Measure only the bare baseline against a scratch schema (validates the harness without the platform). */
  baselineOnly: boolean;
  /**
   * Run the platform inside the bench process (`startLocalPlatform`, in-process bus) instead of the
   * production shape (the gateway and each service as separate processes, events on NATS).
   */
  inProcess: boolean;
  /**
   * NATS JetStream for the service processes in the production shape; undefined: a private
   * nats-server with a fresh store, started for the run.
   */
  natsUrl: string | undefined;
  /** When set, the gateway and service processes run with `--cpu-prof` and write their profiles here. */
  cpuProfDir: string | undefined;
  /** Extra NODE_OPTIONS for the gateway and service processes. */
  serverNodeOptions: string | undefined;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench';

const USAGE = `Usage: npm run bench -- [options]

  --duration <s>       measured seconds per phase (default 10)
  --connections <n>    concurrent connections (default 32)
  --warmup <s>         unrecorded warm-up seconds before each phase (default 3)
  --rounds <n>         baseline/platform phase pairs, best of each is compared (default 2)
  --accounts <n>       accounts seeded and read (default 1000), each with 2 recipients,
                       a payment card, 5 subscriptions and 3 draft invoice lines
  --empty-accounts     seed the accounts with empty sets instead (the shape measured
                       before issue 14)
  --database-url <url> Postgres for the platform and the baseline
                       (default $BENCH_DATABASE_URL or ${DEFAULT_DATABASE_URL}; created if missing)
  --nats-url <url>     NATS JetStream for the service processes (default $BENCH_NATS_URL,
                       else a private nats-server with a fresh store, started for the run)
  --in-process         run the platform inside the bench process (in-process bus, no NATS)
                       instead of the default production shape: the gateway and each service
                       as separate processes
  --cpu-prof <dir>     run the gateway and service processes with --cpu-prof, profiles in
                       <dir>/gateway, <dir>/accounts, ... (summarise: bench/dist/cpu-profile-summary.js)
  --server-node-options=<flags>
                       NODE_OPTIONS for the gateway and service processes (e.g. --perf-basic-prof)
  --json               also print the result as one JSON line
  --baseline-only      only the bare express + pg baseline, against a scratch schema
  --help               this text`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  return parseCommandLine(USAGE, () => parse(argv, env));
}

function parse(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '32' },
      warmup: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '2' },
      accounts: { type: 'string', default: '1000' },
      'database-url': { type: 'string' },
      ...COMMON_FLAGS,
      'empty-accounts': { type: 'boolean', default: false },
      'baseline-only': { type: 'boolean', default: false },
      'in-process': { type: 'boolean', default: false },
      'nats-url': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'server-node-options': { type: 'string' },
    },
  });
  exitOnHelp(values.help, USAGE);
  if (values['cpu-prof'] !== undefined && (values['in-process'] || values['baseline-only'])) {
    throw new Error('--cpu-prof profiles the gateway and service processes: not with --in-process or --baseline-only');
  }
  return {
    durationSeconds: boundedInteger('--duration', values.duration, 1, 600),
    connections: boundedInteger('--connections', values.connections, 1, 1024),
    warmupSeconds: boundedInteger('--warmup', values.warmup, 0, 120),
    rounds: boundedInteger('--rounds', values.rounds, 1, 10),
    accounts: boundedInteger('--accounts', values.accounts, 1, 100_000),
    // The scratch schema of --baseline-only holds accounts with empty sets only.
    emptyAccounts: values['empty-accounts'] || values['baseline-only'],
    databaseUrl: values['database-url'] ?? env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    json: values.json,
    baselineOnly: values['baseline-only'],
    inProcess: values['in-process'],
    natsUrl: values['nats-url'] ?? env.BENCH_NATS_URL,
    cpuProfDir: values['cpu-prof'],
    serverNodeOptions: values['server-node-options'],
  };
}
