import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { systemClock } from '@billing/clock';
import { migrate, openOrm } from '@billing/db';
import { createLogger } from '@billing/observability';
import {
  Charger,
  type Directory,
  gatewayFactory,
  type Invoicing,
  type PaymentsDeps,
  paymentsEntities,
  paymentsMigrations,
} from '@billing/payments';
import pg from 'pg';
import { type ChargeBenchOptions, parseChargeOptions } from './charge-options.js';
import { chargeCounts, INVOICE_AMOUNT_MINOR, seedDueCardInvoices } from './charge-seed.js';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';

/**
 * Benchmark: N due card invoices charged by the payments service's Charger (the code the worker,
 * the invoice.issued consumer and the test clock's advance run: attempt row before the call, the
 * cardgw_a adapter through the stripe SDK, outcome, event, mail row and settlement after it) on a
 * throwaway schema made by the service's own migrations, against a fake of Stripe's API in its own
 * process that answers each request after --latency ms. Baseline in the same run: the same number
 * of bare POSTs to the same gateway from this process, with the same concurrency and keep-alive
 * agent as the SDK: the limit the gateway's latency alone sets (concurrency / latency). Prints
 * charges/s against calls/s and the ratio; exits 1 when a phase charged an invoice other than
 * once (checked on both ends: the attempt rows, and the charges the gateway recorded per key).
 */

const options: ChargeBenchOptions = optionsOrExit(() => parseChargeOptions(process.argv.slice(2), process.env));
const { log, cleanups, runCleanups, state } = benchRun('bench:charges', 'dropping the schema');

interface GatewayCount {
  charges: number;
  succeeded: number;
  amountMinor: string;
  perKey: Record<string, number>;
}

interface Phase {
  side: 'payments' | 'baseline';
  round: number;
  invoices: number;
  seconds: number;
  perSecond: number;
  /** CPU of this process per charge (payments) or call (baseline), in microseconds. */
  cpuUs: number;
}

/** The gateway's process: its URL, and its counts over IPC. */
async function startGatewayProcess(latencyMs: number) {
  const child: ChildProcess = fork(new URL('./charge-gateway.js', import.meta.url), [String(latencyMs)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the gateway process exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as T);
      });
    });
  const { url } = await next<{ url: string }>();
  const ask = <T>(message: object): Promise<T> => {
    const answer = next<T>();
    child.send(message);
    return answer;
  };
  return {
    url,
    mark: () => ask<{ marked: number }>({ mark: true }),
    count: () => ask<GatewayCount>({ count: 'since' }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

/** Runs `work` for 0..count-1, `concurrency` at a time. */
async function lanes(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** One bare charge request, as the SDK sends it (form body, Idempotency-Key, Bearer key). */
function bareCharge(agent: http.Agent, url: string, number: number): Promise<number> {
  const body = new URLSearchParams({
    amount: String(INVOICE_AMOUNT_MINOR),
    currency: 'dkk',
    payment_method: 'pm_card_visa',
    off_session: 'true',
    confirm: 'true',
    description: `Invoice ${number}`,
  }).toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/v1/payment_intents`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: 'Bearer sk_test_bench',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
          'idempotency-key': randomUUID(),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

try {
  await ensureDatabase(options.databaseUrl);
  const schema = `bench_charges_${randomUUID().slice(0, 8)}_payments`;
  log(`gateway: a fake of Stripe's API in its own process, ${options.latencyMs} ms per answer`);
  const gateway = await startGatewayProcess(options.latencyMs);
  cleanups.push(() => gateway.stop());

  const orm = await openOrm({
    clientUrl: options.databaseUrl,
    schema,
    entities: paymentsEntities,
    migrations: paymentsMigrations,
  });
  cleanups.push(() => orm.close(true));
  const admin = new pg.Client({ connectionString: options.databaseUrl, options: `-c search_path=${schema}` });
  await admin.connect();
  cleanups.push(async () => {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  });
  await migrate(orm);
  log(`payments schema ${schema} made by the service's migrations`);

  // The accounts and invoicing services as fixed in-memory answers: the measured work is the
  // payments service's own (its database, the gateway), not theirs.
  const organizationId = randomUUID();
  const directory: Directory = {
    organization: async () => ({
      timeZone: 'Europe/Copenhagen',
      testClockTime: null,
      dunningDays: [1, 3, 7],
      features: [],
      name: 'Bench ApS',
      email: '',
    }),
    account: async () => null,
    gatewayCredentials: async () => ({ secret_key: 'sk_test_bench', webhook_secret: 'whsec_bench' }),
    close: () => {},
  };
  const settlements = new Map<string, number>();
  const invoicing: Invoicing = {
    settle: async (_context, invoiceId) => {
      settlements.set(invoiceId, (settlements.get(invoiceId) ?? 0) + 1);
    },
    openCardInvoices: async () => [],
    close: () => {},
  };
  const deps: PaymentsDeps = {
    orm,
    clock: systemClock,
    logger: createLogger('bench-charges', process.env.LOG_LEVEL ?? 'warn'),
    directory,
    invoicing,
    gateways: gatewayFactory({ cardgwAApiUrl: gateway.url }),
  };
  const agent = new http.Agent({ keepAlive: true });
  cleanups.push(async () => agent.destroy());

  const checkGateway = (count: GatewayCount, expected: number, keys: readonly string[] | null): string[] => {
    const problems: string[] = [];
    if (count.charges !== expected)
      problems.push(`the gateway recorded ${count.charges} charges, expected ${expected}`);
    if (count.succeeded !== expected) problems.push(`${count.succeeded} charges succeeded, expected ${expected}`);
    if (count.amountMinor !== (INVOICE_AMOUNT_MINOR * BigInt(expected)).toString())
      problems.push(`the gateway charged ${count.amountMinor} minor units in all`);
    const twice = Object.values(count.perKey).filter((times) => times !== 1).length;
    if (twice > 0) problems.push(`${twice} idempotency keys were charged more than once`);
    if (keys) {
      const unknown = keys.filter((key) => count.perKey[key] !== 1).length;
      if (unknown > 0 || keys.length !== Object.keys(count.perKey).length)
        problems.push(`${unknown} attempts have no charge of their own at the gateway`);
    }
    return problems;
  };

  const runPayments = async (round: number, invoices: number): Promise<Phase> => {
    await seedDueCardInvoices(admin, schema, organizationId, invoices, new Date(Date.now() - 60_000));
    settlements.clear();
    await gateway.mark();
    const charger = new Charger(deps, options.concurrency);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const ran = await charger.runDue({ test_clock: false }, new Date(), () => new Date());
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const counts = await chargeCounts(admin);
    const problems = checkGateway(await gateway.count(), invoices, counts.attemptIds);
    if (ran.length !== invoices) problems.push(`the charger ran ${ran.length} invoices, expected ${invoices}`);
    for (const [what, value] of [
      ['attempts', counts.attempts],
      ['succeeded attempts', counts.succeeded],
      ['invoices attempted', counts.invoicesAttempted],
      ['invoices paid', counts.paid],
      ['attempts settled', counts.settled],
      ['invoices settled with invoicing', settlements.size],
    ] as const) {
      if (value !== invoices) problems.push(`${value} ${what}, expected ${invoices}`);
    }
    if ([...settlements.values()].some((times) => times !== 1)) problems.push('an invoice was settled twice');
    if (problems.length > 0) throw new Error(`payments phase ${round}: ${problems.join('; ')}`);
    const cpuUs = (used.user + used.system) / invoices;
    return { side: 'payments', round, invoices, seconds, perSecond: invoices / seconds, cpuUs };
  };

  const runBaseline = async (round: number, invoices: number): Promise<Phase> => {
    await gateway.mark();
    let failed = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    await lanes(invoices, options.concurrency, async (index) => {
      if ((await bareCharge(agent, gateway.url, index + 1)) !== 200) failed += 1;
    });
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const problems = checkGateway(await gateway.count(), invoices, null);
    if (failed > 0) problems.push(`${failed} calls were not answered 200`);
    if (problems.length > 0) throw new Error(`baseline phase ${round}: ${problems.join('; ')}`);
    const cpuUs = (used.user + used.system) / invoices;
    return { side: 'baseline', round, invoices, seconds, perSecond: invoices / seconds, cpuUs };
  };

  const sides = options.sides === 'both' ? (['payments', 'baseline'] as const) : ([options.sides] as const);
  const run = { payments: runPayments, baseline: runBaseline };
  if (options.warmup > 0) {
    for (const side of sides) {
      const phase = await run[side](0, options.warmup);
      log(`warm-up ${side}: ${phase.invoices} in ${phase.seconds.toFixed(2)} s`);
    }
  }
  const phases: Phase[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const side of sides) {
      const phase = await run[side](round, options.invoices);
      phases.push(phase);
      log(
        `round ${round} ${side}: ${phase.invoices} ${side === 'payments' ? 'charges' : 'calls'} in ${phase.seconds.toFixed(2)} s = ${phase.perSecond.toFixed(0)}/s, CPU ${phase.cpuUs.toFixed(0)} µs each`,
      );
    }
  }
  const best = (side: Phase['side']) =>
    phases.filter((phase) => phase.side === side).sort((a, b) => b.perSecond - a.perSecond)[0];
  const payments = best('payments');
  const baseline = best('baseline');
  const ratio = payments && baseline ? payments.perSecond / baseline.perSecond : null;
  const limit = options.latencyMs > 0 ? (options.concurrency * 1000) / options.latencyMs : null;
  console.log(
    [
      `bench:charges  ${options.invoices} due card invoices, gateway latency ${options.latencyMs} ms, concurrency ${options.concurrency}, best of ${options.rounds}`,
      `  cores ${availableParallelism()}, load ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}${limit ? `, latency limit ${limit.toFixed(0)}/s` : ''}`,
      ...(baseline
        ? [
            `  baseline  bare gateway calls  ${baseline.perSecond.toFixed(0)}/s  CPU ${baseline.cpuUs.toFixed(0)} µs/call`,
          ]
        : []),
      ...(payments
        ? [
            `  payments  charges            ${payments.perSecond.toFixed(0)}/s  CPU ${payments.cpuUs.toFixed(0)} µs/charge`,
          ]
        : []),
      ...(ratio !== null ? [`  ratio ${ratio.toFixed(2)} (target >= 0.8)`] : []),
      '  every invoice charged exactly once (attempt rows, gateway charges per key, settlements)',
    ].join('\n'),
  );
  if (options.json) {
    console.log(
      JSON.stringify({
        bench: 'charges',
        invoices: options.invoices,
        latency_ms: options.latencyMs,
        concurrency: options.concurrency,
        rounds: options.rounds,
        cores: availableParallelism(),
        load: loadavg()[0],
        baseline_per_second: baseline ? Number(baseline.perSecond.toFixed(1)) : null,
        charges_per_second: payments ? Number(payments.perSecond.toFixed(1)) : null,
        baseline_cpu_us: baseline ? Math.round(baseline.cpuUs) : null,
        payments_cpu_us: payments ? Math.round(payments.cpuUs) : null,
        ratio: ratio === null ? null : Number(ratio.toFixed(3)),
        double_charges: 0,
      }),
    );
  }
} catch (error) {
  console.error('[bench:charges] failed:', error);
  state.exitCode = 1;
} finally {
  await runCleanups();
  process.exit(state.exitCode);
}
