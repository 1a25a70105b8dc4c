import { parseArgs } from 'node:util';
import { benchDatabaseUrl, boundedInteger, COMMON_FLAGS, exitOnHelp, parseCommandLine } from './command-line.js';

/** How the platform runs: a process per service (as deployed), or all of it in the bench process. */
export type RunShape = 'processes' | 'in-process';

export interface BillingRunOptions {
  /** Due subscriptions renewed, invoiced, recorded and (30 %) charged in the run. */
  subscriptions: number;
  /** The shapes measured, one after the other, in this order (the first one's figures lead the report). */
  shapes: RunShape[];
  /** Seconds between the end of the seeding and the moment every subscription falls due. */
  leadSeconds: number;
  /** Messages per transaction of the raw-SQL baseline. */
  baselineBatch: number;
  /** Give up waiting for the platform after this many seconds from the due moment. */
  timeoutSeconds: number;
  databaseUrl: string;
  natsUrl: string | undefined;
  cpuProfDir: string | undefined;
  /** NODE_OPTIONS for the processes shape's gateway and service processes. */
  serverNodeOptions: string | undefined;
  json: boolean;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench_run';

const USAGE = `Usage: npm run bench:billing-run -- [options]

  --subscriptions <n>    due subscriptions of one organization (default 100000; 2000 for a quick run)
  --shape <shape>        processes (a process per service, as deployed), in-process (gateway and
                         the five services in this process) or both, one after the other
                         (default both); every shape uses NATS JetStream
  --lead <s>             seconds from the end of the seeding to the due moment (default 5)
  --baseline-batch <n>   invoices (or their rows) per transaction of the raw-SQL
                         baselines (default 500)
  --timeout <s>          give up this many seconds after the due moment (default 3600)
  --database-url <url>   Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                         ${DEFAULT_DATABASE_URL}; created if missing)
  --nats-url <url>       NATS JetStream (default: a private nats-server with a fresh store per shape)
  --cpu-prof <dir>       run the service processes with --cpu-prof, profiles in <dir>/<service>
                         (the processes shape only)
  --server-node-options=<flags>
                         NODE_OPTIONS for the gateway and service processes (the processes shape
                         only), e.g. --server-node-options=--max-semi-space-size=32
  --json                 also print the result as one JSON line
  --help                 this text`;

// The production shape first: its figures are the report's headline (and the JSON line's top level).
const SHAPES = new Map<string, RunShape[]>([
  ['processes', ['processes']],
  ['in-process', ['in-process']],
  ['both', ['processes', 'in-process']],
]);

export function parseBillingRunOptions(argv: string[], env: NodeJS.ProcessEnv): BillingRunOptions {
  return parseCommandLine(USAGE, () => parse(argv, env));
}

function parse(argv: string[], env: NodeJS.ProcessEnv): BillingRunOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      subscriptions: { type: 'string', default: '100000' },
      shape: { type: 'string', default: 'both' },
      lead: { type: 'string', default: '5' },
      'baseline-batch': { type: 'string', default: '500' },
      timeout: { type: 'string', default: '3600' },
      'database-url': { type: 'string' },
      'nats-url': { type: 'string' },
      'cpu-prof': { type: 'string' },
      'server-node-options': { type: 'string' },
      ...COMMON_FLAGS,
    },
  });
  exitOnHelp(values.help, USAGE);
  const shapes = SHAPES.get(values.shape);
  if (!shapes) throw new Error(`--shape must be processes, in-process or both, got "${values.shape}"`);
  if (values['cpu-prof'] !== undefined && !shapes.includes('processes')) {
    throw new Error('--cpu-prof profiles the service processes: not with --shape in-process');
  }
  if (values['server-node-options'] !== undefined && !shapes.includes('processes')) {
    throw new Error('--server-node-options is for the gateway and service processes: not with --shape in-process');
  }
  return {
    shapes,
    // Even: two subscriptions per account.
    subscriptions: boundedInteger('--subscriptions', values.subscriptions, 2, 200_000) & ~1,
    leadSeconds: boundedInteger('--lead', values.lead, 1, 600),
    baselineBatch: boundedInteger('--baseline-batch', values['baseline-batch'], 1, 10_000),
    timeoutSeconds: boundedInteger('--timeout', values.timeout, 10, 86_400),
    databaseUrl: benchDatabaseUrl(values['database-url'], env, DEFAULT_DATABASE_URL),
    natsUrl: values['nats-url'],
    cpuProfDir: values['cpu-prof'],
    serverNodeOptions: values['server-node-options'],
    json: values.json,
  };
}
