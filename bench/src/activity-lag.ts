import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startNatsServer } from '@billing/testing';
import pg from 'pg';
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
import { startPlatformProcesses } from './platform-processes.js';
import { apiCaller } from './seed-accounts.js';

/**
 * Benchmark: event lag from a subscription change to its activity. The platform runs in its
 * production shape (gateway, accounts, subscriptions, invoicing and analytics as processes, events
 * on NATS JetStream: a private nats-server unless --nats-url names one). For --seconds, new
 * subscriptions (round 200 accounts) are POSTed at --rate per second (open loop: each sent on its schedule, whatever the
 * earlier ones are doing). A reader polls GET /api/v1/activities/?type=new (newest first,
 * following pages until it meets one it has seen) and notes when each subscription's `new`
 * activity is first in an answer. Lag = that answer's arrival − the change's commit, taken as the
 * arrival of the POST's 201 (the moment the client knows it committed; the commit itself is a little
 * earlier). Also shown: the lag from the subscription's `created_date` (the transaction's start,
 * before the engine ran: an upper bound). Baseline in the same run: the reader's own GET round trip (what seeing anything at
 * all through the API costs under that load). Prints p50/p99 of both, their ratio and the rate
 * held; --json adds one JSON line.
 */

interface Options {
  rate: number;
  seconds: number;
  databaseUrl: string;
  natsUrl: string | undefined;
  cpuProfDir: string | undefined;
  json: boolean;
}

const USAGE = `Usage: npm run bench:activity-lag -- [options]

  --rate <n>             subscription changes per second (default 200)
  --seconds <n>          how long they arrive (default 10, after 20 unmeasured ones)
  --database-url <url>   Postgres (default $BENCH_DATABASE_URL, $TEST_DATABASE_URL, $DATABASE_URL or
                         postgresql://postgres@127.0.0.1:5432/billing_bench_lag; created if missing)
  --nats-url <url>       NATS JetStream (default: a private nats-server with a fresh store)
  --cpu-prof <dir>       run the gateway and service processes with --cpu-prof, profiles in
                         <dir>/gateway, <dir>/analytics, ... (summarise: bench/dist/cpu-profile-summary.js)
  --json                 also print the result as one JSON line
  --help                 this text`;

function parse(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      rate: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '10' },
      'database-url': { type: 'string' },
      'nats-url': { type: 'string' },
      'cpu-prof': { type: 'string' },
      ...COMMON_FLAGS,
    },
  });
  exitOnHelp(values.help, USAGE);
  return {
    rate: boundedInteger('--rate', values.rate, 1, 5_000),
    seconds: boundedInteger('--seconds', values.seconds, 1, 600),
    databaseUrl: benchDatabaseUrl(
      values['database-url'],
      env,
      'postgresql://postgres@127.0.0.1:5432/billing_bench_lag',
    ),
    natsUrl: values['nats-url'],
    cpuProfDir: values['cpu-prof'],
    json: values.json,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const summary = (durations: number[]) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const round = (value: number) => Number(value.toFixed(1));

// Beyond this many unanswered POSTs the platform is not holding the rate: later ones wait.
const MAX_IN_FLIGHT = 256;
const PAGE_SIZE = 100;
const DRAIN_TIMEOUT_MS = 120_000;
const ACCOUNTS = 200;

const options = optionsOrExit(() => parseCommandLine(USAGE, () => parse(process.argv.slice(2), process.env)));
const { log, cleanups, runCleanups, state } = benchRun('bench:activity-lag', 'stopping the platform');

try {
  await ensureDatabase(options.databaseUrl);
  let natsUrl = options.natsUrl;
  if (!natsUrl) {
    const nats = await startNatsServer();
    cleanups.push(() => nats.dispose());
    natsUrl = nats.url;
  }
  const platform = await startPlatformProcesses({
    databaseUrl: options.databaseUrl,
    natsUrl,
    analytics: true,
    cpuProfDir: options.cpuProfDir,
    log,
  });
  cleanups.push(() => platform.stop());
  const call = apiCaller(platform.gatewayUrl, platform.token);

  // The organization reaches analytics with accounts' organization.created (before it, analytics
  // retries the organization's subscription events).
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
  cleanups.push(() => pool.end());
  for (let i = 0; ; i++) {
    const { rowCount } = await pool.query('select 1 from analytics.organization where id = $1', [
      platform.organizationId,
    ]);
    if (rowCount) break;
    if (i > 600) throw new Error('analytics never heard of the organization');
    await sleep(50);
  }

  // The changes go round ACCOUNTS accounts: a customer has a few subscriptions, not thousands.
  const code = `lag-${Date.now()}`;
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `${code}-${i}`);
  for (const account of accounts) {
    await call('POST', '/accounts/', {
      code: account,
      company_name: `Lag ${account} ApS`,
      legal_address: 'Vesterbrogade 1',
      legal_zipcode: '1620',
      legal_city: 'København V',
      legal_country: 'DK',
    });
  }
  const plan = await call<{ uuid: string }>('POST', '/plans/', {
    name: 'Lag',
    code,
    collect_vat: true,
    vat_type: 'services',
  });
  const terms = await call<{ uuid: string }>('POST', '/planterms/', {
    plan: plan.uuid,
    code: `${code}-monthly`,
    interval_type: 'month',
    interval_count: 1,
    price: '100',
    currency: 'DKK',
    backwards_charging: false,
  });
  let changes = 0;
  const subscribe = () =>
    call<{ uuid: string; created_date: string }>('POST', '/subscriptions/', {
      account: accounts[changes++ % ACCOUNTS],
      terms: terms.uuid,
      quantity: 1,
      collection_method: 'invoice',
    });

  // The reader: when each subscription's `new` activity was first seen, and each GET's round trip.
  const seenAt = new Map<string, number>();
  const seenActivities = new Set<string>();
  const roundTrips: number[] = [];
  let reading = true;
  let measuring = false;
  type Page = { next: string | null; results: Array<{ uuid: string; subscription: string | null }> };
  const readOnce = async () => {
    for (let page = 1; ; page++) {
      const started = performance.now();
      const body = await call<Page>(
        'GET',
        `/activities/?type=new&ordering=-created_date&page_size=${PAGE_SIZE}&page=${page}`,
      );
      const arrived = Date.now();
      if (measuring) roundTrips.push(performance.now() - started);
      let metSeen = false;
      for (const activity of body.results) {
        if (seenActivities.has(activity.uuid)) metSeen = true;
        seenActivities.add(activity.uuid);
        if (activity.subscription && !seenAt.has(activity.subscription)) seenAt.set(activity.subscription, arrived);
      }
      if (metSeen || !body.next) return;
    }
  };
  const reader = (async () => {
    while (reading) await readOnce();
  })();
  // Stopped before the platform is, also when the run fails.
  cleanups.push(async () => {
    reading = false;
    await reader.catch(() => {});
  });

  log('warming up: 20 subscriptions, each until its activity is read');
  for (let i = 0; i < 20; i++) {
    const { uuid } = await subscribe();
    for (let waited = 0; !seenAt.has(uuid); waited += 10) {
      if (waited > DRAIN_TIMEOUT_MS) throw new Error(`the activity of ${uuid} never appeared`);
      await sleep(10);
    }
  }

  log(`measuring: ${options.rate} subscription changes per second for ${options.seconds} s`);
  measuring = true;
  const committed: Array<{ uuid: string; at: number; started: number }> = [];
  const postLatencies: number[] = [];
  const failures: string[] = [];
  const total = options.rate * options.seconds;
  const interval = 1_000 / options.rate;
  const sending: Promise<void>[] = [];
  let inFlight = 0;
  const firstSend = performance.now();
  for (let i = 0; i < total; i++) {
    await sleep(firstSend + i * interval - performance.now());
    while (inFlight >= MAX_IN_FLIGHT) await sleep(1);
    inFlight++;
    const sent = performance.now();
    sending.push(
      subscribe()
        .then(({ uuid, created_date }) => {
          postLatencies.push(performance.now() - sent);
          committed.push({ uuid, at: Date.now(), started: Date.parse(created_date) });
        })
        .catch((error: unknown) => {
          failures.push(String(error));
        })
        .finally(() => {
          inFlight--;
        }),
    );
  }
  await Promise.all(sending);
  const sendingSeconds = (performance.now() - firstSend) / 1_000;
  // A change the platform refused (503: a backing service past its deadline) is reported, not measured.
  if (failures.length > 0) log(`${failures.length} changes failed, the first: ${failures[0]}`);
  if (committed.length === 0) throw new Error('no change was committed');
  const drainDeadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (committed.some(({ uuid }) => !seenAt.has(uuid))) {
    if (performance.now() > drainDeadline) throw new Error('some activities never appeared');
    await sleep(10);
  }
  measuring = false;
  reading = false;
  await reader;

  const lag = summary(committed.map(({ uuid, at }) => seenAt.get(uuid)! - at));
  const lagFromStart = summary(committed.map(({ uuid, started }) => seenAt.get(uuid)! - started));
  const get = summary(roundTrips);
  const post = summary(postLatencies);
  const result = {
    changes: committed.length,
    failed_changes: failures.length,
    rate_asked_per_s: options.rate,
    rate_held_per_s: round(committed.length / sendingSeconds),
    lag_p50_ms: round(lag.p50),
    lag_p99_ms: round(lag.p99),
    lag_from_created_date_p50_ms: round(lagFromStart.p50),
    lag_from_created_date_p99_ms: round(lagFromStart.p99),
    baseline_get_p50_ms: round(get.p50),
    baseline_get_p99_ms: round(get.p99),
    post_p50_ms: round(post.p50),
    post_p99_ms: round(post.p99),
    ratio_p99: round(lag.p99 / get.p99),
    load: round(loadavg()[0] ?? 0),
  };
  console.log(`activity lag: ${result.changes} subscription changes at ${result.rate_held_per_s}/s held (${options.rate}/s asked, ${result.failed_changes} failed; load ${result.load})

| series | p50 ms | p99 ms |
|---|---|---|
| change committed (its 201) → its activity read through GET /api/v1/activities/ | ${result.lag_p50_ms} | ${result.lag_p99_ms} |
| the same from the subscription's created_date (transaction start) | ${result.lag_from_created_date_p50_ms} | ${result.lag_from_created_date_p99_ms} |
| baseline: the reader's GET /api/v1/activities/ round trip | ${result.baseline_get_p50_ms} | ${result.baseline_get_p99_ms} |
| (the changes' POST /api/v1/subscriptions/ round trip) | ${result.post_p50_ms} | ${result.post_p99_ms} |

lag p99 / GET p99: ${result.ratio_p99}x (target: lag p99 ≤ 250 ms at 200 changes/s)`);
  if (options.json) console.log(JSON.stringify(result));
} catch (error) {
  console.error(error);
  state.exitCode = 1;
} finally {
  await runCleanups();
  process.exit(state.exitCode);
}
