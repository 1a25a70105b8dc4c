import { parseArgs } from 'node:util';
import {
  benchDatabaseUrl,
  boundedInteger,
  COMMON_FLAGS,
  chosenSides,
  exitOnHelp,
  parseCommandLine,
} from './command-line.js';

export interface RenewalOptions {
  /** Due subscriptions seeded before every measured phase. */
  subscriptions: number;
  /** Subscriptions claimed per transaction, the same for the scheduler and the baseline. */
  batchSize: number;
  /** Concurrent workers per phase, each with its own ORM or pool (scheduler replicas). */
  replicas: number;
  /** Scheduler/baseline phase pairs; the best phase of each side is compared. */
  rounds: number;
  /** Subscriptions of the unmeasured warm-up phase of each side (JIT, pools, prepared plans). */
  warmup: number;
  databaseUrl: string;
  /** Which sides run: both, or one of them alone (profiling, checking the harness). */
  sides: 'both' | 'scheduler' | 'baseline';
  /** When set, the measured scheduler phases are CPU-profiled into this folder. */
  cpuProfDir: string | undefined;
  json: boolean;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench';

const USAGE = `Usage: npm run bench:renewals -- [options]

  --subscriptions <n>  due subscriptions renewed per phase (default 10000; 100000 for the large run)
  --batch-size <n>     subscriptions claimed per transaction, both sides (default 200, the
                       scheduler's SCHEDULER_BATCH_SIZE default)
  --replicas <n>       concurrent workers per phase, each with its own ORM / pool (default 1)
  --rounds <n>         scheduler/baseline phase pairs, best of each is compared (default 2)
  --warmup <n>         subscriptions of one unmeasured warm-up phase per side (default 1000, 0: none)
  --database-url <url> Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                       ${DEFAULT_DATABASE_URL}; created if missing). The run works in a
                       throwaway schema, dropped at the end
  --only <side>        scheduler or baseline: run one side only
  --cpu-prof <dir>     CPU-profile the measured scheduler phases (V8 inspector, in this process) into
                       <dir>; summarise with bench/dist/cpu-profile-summary.js <dir>
  --json               also print the result as one JSON line
  --help               this text`;

export function parseRenewalOptions(argv: string[], env: NodeJS.ProcessEnv): RenewalOptions {
  return parseCommandLine(USAGE, () => parse(argv, env));
}

function parse(argv: string[], env: NodeJS.ProcessEnv): RenewalOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      subscriptions: { type: 'string', default: '10000' },
      'batch-size': { type: 'string', default: '200' },
      replicas: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '1000' },
      'database-url': { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      ...COMMON_FLAGS,
    },
  });
  exitOnHelp(values.help, USAGE);
  const sides = chosenSides('scheduler', values.only, values['cpu-prof']);
  return {
    subscriptions: boundedInteger('--subscriptions', values.subscriptions, 1, 1_000_000),
    batchSize: boundedInteger('--batch-size', values['batch-size'], 1, 10_000),
    replicas: boundedInteger('--replicas', values.replicas, 1, 16),
    rounds: boundedInteger('--rounds', values.rounds, 1, 10),
    warmup: boundedInteger('--warmup', values.warmup, 0, 100_000),
    databaseUrl: benchDatabaseUrl(values['database-url'], env, DEFAULT_DATABASE_URL),
    sides,
    cpuProfDir: values['cpu-prof'],
    json: values.json,
  };
}
