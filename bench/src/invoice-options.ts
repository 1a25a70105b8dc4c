import { parseArgs } from 'node:util';
import {
  benchDatabaseUrl,
  boundedInteger,
  COMMON_FLAGS,
  chosenSides,
  exitOnHelp,
  parseCommandLine,
} from './command-line.js';

export interface InvoiceOptions {
  /** Charges (one per renewed subscription) made by the scheduler and invoiced in every measured phase. */
  invoices: number;
  /** Invoicing/baseline phase pairs; the best phase of each side is compared. */
  rounds: number;
  /** Charges of the unmeasured warm-up phase of each side (JIT, pools). */
  warmup: number;
  databaseUrl: string;
  /** Which sides run: both, or one of them alone (profiling, checking the harness). */
  sides: 'both' | 'invoicing' | 'baseline';
  /** When set, the measured invoicing phases are CPU-profiled into this folder. */
  cpuProfDir: string | undefined;
  json: boolean;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench';

const USAGE = `Usage: npm run bench:invoices -- [options]

  --invoices <n>       charges renewed by the scheduler once, then invoiced in every phase (default 5000)
  --rounds <n>         invoicing/baseline phase pairs, best of each is compared (default 2)
  --warmup <n>         charges of one unmeasured warm-up phase per side (default 500, 0: none)
  --database-url <url> Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                       ${DEFAULT_DATABASE_URL}; created if missing). The run works in two
                       throwaway schemas, dropped at the end
  --only <side>        invoicing or baseline: run one side only
  --cpu-prof <dir>     CPU-profile the measured invoicing phases (V8 inspector, in this process) into
                       <dir>; summarise with bench/dist/cpu-profile-summary.js <dir>
  --json               also print the result as one JSON line
  --help               this text`;

export function parseInvoiceOptions(argv: string[], env: NodeJS.ProcessEnv): InvoiceOptions {
  return parseCommandLine(USAGE, () => parse(argv, env));
}

function parse(argv: string[], env: NodeJS.ProcessEnv): InvoiceOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      invoices: { type: 'string', default: '5000' },
      rounds: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '500' },
      'database-url': { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      ...COMMON_FLAGS,
    },
  });
  exitOnHelp(values.help, USAGE);
  const sides = chosenSides('invoicing', values.only, values['cpu-prof']);
  const invoices = boundedInteger('--invoices', values.invoices, 1, 200_000);
  const warmup = boundedInteger('--warmup', values.warmup, 0, 200_000);
  if (warmup > invoices) throw new Error('--warmup cannot exceed --invoices (it reuses their charges)');
  return {
    invoices,
    rounds: boundedInteger('--rounds', values.rounds, 1, 10),
    warmup,
    databaseUrl: benchDatabaseUrl(values['database-url'], env, DEFAULT_DATABASE_URL),
    sides,
    cpuProfDir: values['cpu-prof'],
    json: values.json,
  };
}
