import { parseArgs } from 'node:util';
import { benchDatabaseUrl, boundedInteger, COMMON_FLAGS, exitOnHelp, parseCommandLine } from './command-line.js';

export interface ExportOptions {
  /** Invoices seeded once and exported in every measured phase. */
  invoices: number;
  /** Baseline/platform phase pairs; the best phase of each side is compared. */
  rounds: number;
  databaseUrl: string;
  natsUrl: string;
  json: boolean;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

const USAGE = `Usage: npm run bench:exports -- [options]

  --invoices <n>       invoices of one organization, exported in every phase (default 100000)
  --rounds <n>         baseline/platform phase pairs, best of each is compared (default 2)
  --database-url <url> Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                       ${DEFAULT_DATABASE_URL}; created if missing)
  --nats-url <url>     NATS JetStream for the service processes (default $BENCH_NATS_URL or
                       ${DEFAULT_NATS_URL})
  --json               also print the result as one JSON line
  --help               this text`;

export function parseExportOptions(argv: string[], env: NodeJS.ProcessEnv): ExportOptions {
  return parseCommandLine(USAGE, () => {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        invoices: { type: 'string', default: '100000' },
        rounds: { type: 'string', default: '2' },
        'database-url': { type: 'string' },
        'nats-url': { type: 'string' },
        ...COMMON_FLAGS,
      },
    });
    exitOnHelp(values.help, USAGE);
    return {
      invoices: boundedInteger('--invoices', values.invoices, 1, 2_000_000),
      rounds: boundedInteger('--rounds', values.rounds, 1, 10),
      databaseUrl: benchDatabaseUrl(values['database-url'], env, DEFAULT_DATABASE_URL),
      natsUrl: values['nats-url'] ?? env.BENCH_NATS_URL ?? DEFAULT_NATS_URL,
      json: values.json,
    };
  });
}
