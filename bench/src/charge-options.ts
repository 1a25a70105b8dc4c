import { parseArgs } from 'node:util';
import {
  benchDatabaseUrl,
  boundedInteger,
  COMMON_FLAGS,
  chosenSides,
  exitOnHelp,
  parseCommandLine,
} from './command-line.js';

export interface ChargeBenchOptions {
  /** Due card invoices charged in every measured phase (and bare calls made by the baseline). */
  invoices: number;
  /** The fake gateway's delay before each answer, in milliseconds. */
  latencyMs: number;
  /** Charges (and bare calls) in flight at once: the Charger's concurrency and the baseline's. */
  concurrency: number;
  /** Payments/baseline phase pairs; the best phase of each side is compared. */
  rounds: number;
  /** Invoices of the unmeasured warm-up phase of each side (JIT, pools, connections). */
  warmup: number;
  databaseUrl: string;
  sides: 'both' | 'payments' | 'baseline';
  json: boolean;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench';

const USAGE = `Usage: npm run bench:charges -- [options]

  --invoices <n>       due card invoices charged in every phase (default 10000)
  --latency <ms>       the gateway's delay before each answer (default 50)
  --concurrency <n>    charges in flight at once, the same for the baseline's bare calls
                       (default 64, the service's PAYMENTS_CHARGE_CONCURRENCY)
  --rounds <n>         payments/baseline phase pairs, best of each is compared (default 2)
  --warmup <n>         invoices of one unmeasured warm-up phase per side (default 1000, 0: none)
  --database-url <url> Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                       ${DEFAULT_DATABASE_URL}; created if missing). The run works in a
                       throwaway schema, dropped at the end
  --only <side>        payments or baseline: run one side only
  --json               also print the result as one JSON line
  --help               this text`;

export function parseChargeOptions(argv: string[], env: NodeJS.ProcessEnv): ChargeBenchOptions {
  return parseCommandLine(USAGE, () => {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        invoices: { type: 'string', default: '10000' },
        latency: { type: 'string', default: '50' },
        concurrency: { type: 'string', default: '64' },
        rounds: { type: 'string', default: '2' },
        warmup: { type: 'string', default: '1000' },
        'database-url': { type: 'string' },
        only: { type: 'string' },
        ...COMMON_FLAGS,
      },
    });
    exitOnHelp(values.help, USAGE);
    return {
      invoices: boundedInteger('--invoices', values.invoices, 1, 200_000),
      latencyMs: boundedInteger('--latency', values.latency, 0, 10_000),
      concurrency: boundedInteger('--concurrency', values.concurrency, 1, 1_000),
      rounds: boundedInteger('--rounds', values.rounds, 1, 10),
      warmup: boundedInteger('--warmup', values.warmup, 0, 200_000),
      databaseUrl: benchDatabaseUrl(values['database-url'], env, DEFAULT_DATABASE_URL),
      sides: chosenSides('payments', values.only, undefined),
      json: values.json,
    };
  });
}
