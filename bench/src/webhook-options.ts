import { parseArgs } from 'node:util';
import { benchDatabaseUrl, boundedInteger, COMMON_FLAGS, exitOnHelp, parseCommandLine } from './command-line.js';

export interface WebhookBenchOptions {
  /** Deliveries made and received (events × webhooks). */
  deliveries: number;
  /** Webhooks of the organization, each its own endpoint on the local receiver. */
  webhooks: number;
  /** Events handed over per ApplyEvents call. */
  batch: number;
  /** Deliveries in flight per endpoint: the service's WEBHOOKS_ENDPOINT_CONCURRENCY and the baseline's loops per endpoint. */
  endpointConcurrency: number;
  databaseUrl: string;
  json: boolean;
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing_bench';

const USAGE = `Usage: npm run bench:webhooks -- [options]

  --deliveries <n>     deliveries made and received (default 10000); a multiple of --webhooks
  --webhooks <n>       webhooks taking every event, each its own endpoint (default 10)
  --batch <n>          events handed over per ApplyEvents call (default 50)
  --endpoint-concurrency <n>
                       deliveries in flight per endpoint, the service's and the baseline's (default 5,
                       the service's default)
  --database-url <url> Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                       ${DEFAULT_DATABASE_URL}; created if missing). The run works in a
                       throwaway schema, dropped at the end
  --json               also print the result as one JSON line
  --help               this text`;

export function parseWebhookOptions(argv: string[], env: NodeJS.ProcessEnv): WebhookBenchOptions {
  return parseCommandLine(USAGE, () => {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        deliveries: { type: 'string', default: '10000' },
        webhooks: { type: 'string', default: '10' },
        batch: { type: 'string', default: '50' },
        'endpoint-concurrency': { type: 'string', default: '5' },
        'database-url': { type: 'string' },
        ...COMMON_FLAGS,
      },
    });
    exitOnHelp(values.help, USAGE);
    const deliveries = boundedInteger('--deliveries', values.deliveries, 1, 1_000_000);
    const webhooks = boundedInteger('--webhooks', values.webhooks, 1, 200);
    if (deliveries % webhooks !== 0) throw new Error('--deliveries must be a multiple of --webhooks');
    return {
      deliveries,
      webhooks,
      batch: boundedInteger('--batch', values.batch, 1, 1_000),
      endpointConcurrency: boundedInteger('--endpoint-concurrency', values['endpoint-concurrency'], 1, 100),
      databaseUrl: benchDatabaseUrl(values['database-url'], env, DEFAULT_DATABASE_URL),
      json: values.json,
    };
  });
}
