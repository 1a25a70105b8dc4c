import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalPlatform } from '@billing/local';
import pg from 'pg';
import { BENCH_RATE_LIMIT_PER_MINUTE, benchOrganizationName } from './bench-platform.js';
import {
  benchDatabaseUrl,
  benchRun,
  boundedInteger,
  COMMON_FLAGS,
  exitOnHelp,
  optionsOrExit,
  parseCommandLine,
} from './command-line.js';
import { ensureDatabase } from './database.js';

/**
 * Benchmark: GET /api/v1/subscriptions/total-mrr/ for an organization with N subscriptions
 * (1,000,000 by default) seeded into analytics' own tables (subscription_mrr, and mrr_totals as the
 * consumers keep it), through the gateway → gRPC → analytics (in-process platform), against the
 * same figures computed by a plain SUM over the subscriptions' MRR rows on the same database, in
 * the same run. Also a filtered total (one plan, 1% of the subscriptions, by index). Prints
 * p50/p99 of each and the ratio; --json adds one JSON line.
 */

interface Options {
  subscriptions: number;
  requests: number;
  baselineRequests: number;
  databaseUrl: string;
  json: boolean;
}

const USAGE = `Usage: npm run bench:total-mrr -- [options]

  --subscriptions <n>      subscriptions of the organization (default 1000000)
  --requests <n>           measured requests per platform series (default 400, after 40 unmeasured)
  --baseline-requests <n>  measured plain SUMs (default 20, after 2 unmeasured)
  --database-url <url>     Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                           postgresql://postgres@127.0.0.1:5432/billing_bench_mrr; created if missing)
  --json                   also print the result as one JSON line
  --help                   this text`;

function parse(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      subscriptions: { type: 'string', default: '1000000' },
      requests: { type: 'string', default: '400' },
      'baseline-requests': { type: 'string', default: '20' },
      'database-url': { type: 'string' },
      ...COMMON_FLAGS,
    },
  });
  exitOnHelp(values.help, USAGE);
  return {
    subscriptions: boundedInteger('--subscriptions', values.subscriptions, 1, 10_000_000),
    requests: boundedInteger('--requests', values.requests, 1, 100_000),
    baselineRequests: boundedInteger('--baseline-requests', values['baseline-requests'], 1, 10_000),
    databaseUrl: benchDatabaseUrl(
      values['database-url'],
      env,
      'postgresql://postgres@127.0.0.1:5432/billing_bench_mrr',
    ),
    json: values.json,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const summary = (durations: number[]) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

async function timed(count: number, warmup: number, run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await run();
    durations.push(performance.now() - start);
  }
  return durations;
}

const options = optionsOrExit(() => parseCommandLine(USAGE, () => parse(process.argv.slice(2), process.env)));
const { log, cleanups, runCleanups, state } = benchRun('bench:total-mrr', 'stopping the platform');

try {
  await ensureDatabase(options.databaseUrl);
  log('starting the platform in-process (gateway, accounts, analytics, ...)');
  const platform = await startLocalPlatform({ databaseUrl: options.databaseUrl, gatewayPort: 0, logLevel: 'warn' });
  cleanups.push(() => platform.stop());
  const { organizationId, token } = await platform.createOrganization({
    name: benchOrganizationName(),
    rate_limit_per_minute: BENCH_RATE_LIMIT_PER_MINUTE,
  });
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  cleanups.push(() => pool.end());
  cleanups.push(async () => {
    for (const table of ['subscription_mrr', 'mrr_totals']) {
      await pool.query(`delete from analytics.${table} where organization_id = $1`, [organizationId]);
    }
  });
  // The organization reaches analytics with accounts' organization.created.
  for (let i = 0; ; i++) {
    const { rowCount } = await pool.query('select 1 from analytics.organization where id = $1', [organizationId]);
    if (rowCount) break;
    if (i > 200) throw new Error('analytics never heard of the organization');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  log(`seeding ${options.subscriptions} subscriptions into analytics.subscription_mrr`);
  const plan = randomUUID();
  const smallPlan = randomUUID();
  await pool.query(
    `insert into analytics.subscription_mrr
       (id, organization_id, account_id, plan_id, terms_id, status, collection_method, currency, quantity,
        interval_type, interval_count, has_custom_price, payment_terms, start_date, original_start_date,
        next_renewal_date, end_date, last_modified_date, mrr, rate, total_mrr, future_mrr, pending_mrr,
        churn_reason, custom_churn_reason, version, invalid)
     select gen_random_uuid(), $1, gen_random_uuid(), case when i % 100 = 0 then $3::uuid else $2::uuid end,
            gen_random_uuid(),
            case when i % 10 = 0 then 'not_renewing' when i % 25 = 1 then 'pending_manual_renewal' else 'active' end,
            'invoice', 'DKK', 1 + i % 5, 'month', 1, false, null, now(), now(), now() + interval '1 month', null, now(),
            100 * (1 + i % 5), 1,
            case when i % 25 = 1 then 0 else 100 * (1 + i % 5) end,
            case when i % 10 = 0 or i % 25 = 1 then 0 else 100 * (1 + i % 5) end,
            case when i % 25 = 1 then 100 * (1 + i % 5) else 0 end,
            null, null, 1, false
       from generate_series(1, $4) as i`,
    [organizationId, plan, smallPlan, options.subscriptions],
  );
  // The totals as the consumers keep them in step, written once here.
  await pool.query(
    `insert into analytics.mrr_totals (organization_id, total_mrr, future_mrr, pending_mrr, subscriptions_count)
     select $1, sum(total_mrr), sum(future_mrr), sum(pending_mrr), count(*) filter (where status in ('active', 'not_renewing'))
       from analytics.subscription_mrr where organization_id = $1
     on conflict (organization_id) do update set total_mrr = excluded.total_mrr, future_mrr = excluded.future_mrr,
       pending_mrr = excluded.pending_mrr, subscriptions_count = excluded.subscriptions_count`,
    [organizationId],
  );
  await pool.query('analyze analytics.subscription_mrr');

  const headers = { Authorization: `Token ${token}`, 'X-Client-System': 'bench' };
  const get = async (query = '') => {
    const response = await fetch(`${platform.gatewayUrl}/api/v1/subscriptions/total-mrr/${query}`, { headers });
    if (response.status !== 200) throw new Error(`total-mrr answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { total_mrr: string; subscriptions_count: number };
  };
  const baselineSql = `select sum(total_mrr) as total_mrr, sum(future_mrr) as future_mrr, sum(pending_mrr) as pending,
                              count(*) filter (where status in ('active', 'not_renewing')) as count
                         from analytics.subscription_mrr where organization_id = $1`;
  const platformAnswer = await get();
  const { rows } = await pool.query(baselineSql, [organizationId]);
  if (
    platformAnswer.total_mrr !== Number(rows[0].total_mrr).toFixed(2) ||
    platformAnswer.subscriptions_count !== Number(rows[0].count)
  ) {
    throw new Error(`the platform answered ${JSON.stringify(platformAnswer)}, the SUM ${JSON.stringify(rows[0])}`);
  }

  log(`measuring ${options.requests} unfiltered and ${options.requests} filtered requests through the gateway`);
  const unfiltered = summary(await timed(options.requests, 40, () => get()));
  const filtered = summary(await timed(options.requests, 40, () => get(`?plan=${smallPlan}`)));
  log(`measuring ${options.baselineRequests} plain SUMs`);
  const baseline = summary(await timed(options.baselineRequests, 2, () => pool.query(baselineSql, [organizationId])));

  const result = {
    subscriptions: options.subscriptions,
    total_mrr: platformAnswer.total_mrr,
    platform_unfiltered_p50_ms: Number(unfiltered.p50.toFixed(2)),
    platform_unfiltered_p99_ms: Number(unfiltered.p99.toFixed(2)),
    platform_filtered_p50_ms: Number(filtered.p50.toFixed(2)),
    platform_filtered_p99_ms: Number(filtered.p99.toFixed(2)),
    baseline_sum_p50_ms: Number(baseline.p50.toFixed(2)),
    baseline_sum_p99_ms: Number(baseline.p99.toFixed(2)),
    ratio_p50: Number((baseline.p50 / unfiltered.p50).toFixed(1)),
    load: loadavg()[0] ?? 0,
  };
  console.log(`total-mrr of ${options.subscriptions} subscriptions (load ${result.load.toFixed(1)})

| series | p50 ms | p99 ms |
|---|---|---|
| gateway → analytics, unfiltered (maintained totals) | ${result.platform_unfiltered_p50_ms} | ${result.platform_unfiltered_p99_ms} |
| gateway → analytics, ?plan= (1% of them, index) | ${result.platform_filtered_p50_ms} | ${result.platform_filtered_p99_ms} |
| baseline: plain SUM over the MRR rows | ${result.baseline_sum_p50_ms} | ${result.baseline_sum_p99_ms} |

baseline p50 / platform p50: ${result.ratio_p50}x (targets: unfiltered p50 ≤ 20 ms, p99 ≤ 50 ms)`);
  if (options.json) console.log(JSON.stringify(result));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
  process.exit(state.exitCode);
}
