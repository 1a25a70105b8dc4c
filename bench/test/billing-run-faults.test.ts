/**
 * Faults in the monthly billing run (issue 14): the platform in its production shape (a process per
 * service, a private NATS JetStream server, a database of its own), N subscriptions falling due at
 * once, and in the middle of the run one service killed outright (kill -9: no graceful stop, the
 * batch in hand lost) and started again, or two invoicing processes consuming together. Afterwards
 * the run must be exactly what an undisturbed run makes: every subscription charged and invoiced
 * once, invoice numbers 1..n without gaps, one invoice.issued per invoice, one activity per invoice
 * and payment, and each card invoice charged once at the card gateway (a local fake of Stripe's
 * API, which records every charge with its idempotency key).
 *
 * N is 1,000 in `npm test` (BILLING_RUN_FAULT_SUBSCRIPTIONS sets another). The issue's 10,000 is
 * `BILLING_RUN_FAULT_SUBSCRIPTIONS=10000`: the four cases take about 7 minutes at 10,000 on a
 * 2-core machine (README "Monthly billing run"), against 15-70 s each at 1,000.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startFakeStripe, startNatsServer } from '@billing/testing';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  billingRunProblems,
  billingRunStages,
  type SeededRun,
  type Stage,
  StagePoller,
  seedBillingRun,
} from '../src/billing-run-scenario.js';
import { type ProcessPlatform, type ServiceName, startPlatformProcesses } from '../src/platform-processes.js';
import { freshDatabase } from './support/fresh-database.js';

const SUBSCRIPTIONS = Number(process.env.BILLING_RUN_FAULT_SUBSCRIPTIONS ?? 1_000) & ~1;
const WEBHOOK_SECRET = 'whsec_billing_run_faults';
const CREDENTIALS_KEY = randomBytes(32).toString('hex');
// Generous: a loaded 2-core CI machine, and a restarted service catching up.
const RUN_TIMEOUT_MS = 15 * 60_000;
// The card gateway answers each call after GATEWAY_LATENCY_MS (Stripe's own take a few hundred) and
// payments makes CHARGE_CONCURRENCY calls at once, so its 300 charges of a 1,000 run take about 4 s
// and land a group of 8 at a time. With an instant gateway and the default 64 calls, payments
// charged a whole batch of card invoices between two polls (seen: 0 → 151 of 300, 0 → 156), so
// the kill could come after all of its work was done and find nothing in the middle to break.
const GATEWAY_LATENCY_MS = 100;
const CHARGE_CONCURRENCY = 8;
const TEST_TIMEOUT_MS = RUN_TIMEOUT_MS + 5 * 60_000;

interface Run {
  platform: ProcessPlatform;
  db: pg.Pool;
  stripe: Awaited<ReturnType<typeof startFakeStripe>>;
  seeded: SeededRun;
  stages: Stage[];
  poller: StagePoller;
  start: number;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** `npm run -s admin -- set-gateway-credentials ...` through the built CLI, as an operator types it. */
async function setCardGatewayCredentials(databaseUrl: string, organizationId: string): Promise<void> {
  const cli = fileURLToPath(new URL('admin/cli.js', import.meta.resolve('@billing/accounts')));
  const args = [
    cli,
    'set-gateway-credentials',
    '--org',
    organizationId,
    '--gateway',
    'cardgw_a',
    '--credential',
    'secret_key=sk_test_faults',
    '--credential',
    `webhook_secret=${WEBHOOK_SECRET}`,
  ];
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      DB_SCHEMA: 'accounts',
      GATEWAY_CREDENTIALS_KEY: CREDENTIALS_KEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`set-gateway-credentials exited with ${code}: ${output}`);
}

async function startRun(replicas: Partial<Record<ServiceName, number>> = {}): Promise<Run> {
  const databaseUrl = await freshDatabase('billing_faults', cleanups);
  const nats = await startNatsServer();
  cleanups.push(() => nats.dispose());
  const stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET, latencyMs: GATEWAY_LATENCY_MS });
  cleanups.push(() => stripe.stop());
  const platform = await startPlatformProcesses({
    databaseUrl,
    natsUrl: nats.url,
    analytics: true,
    payments: true,
    replicas,
    environment: {
      payments: {
        CARDGW_A_API_URL: stripe.url,
        GATEWAY_CREDENTIALS_KEY: CREDENTIALS_KEY,
        PAYMENTS_CHARGE_CONCURRENCY: String(CHARGE_CONCURRENCY),
      },
    },
    log: () => undefined,
  });
  cleanups.push(() => platform.stop());
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  cleanups.push(() => db.end());
  await setCardGatewayCredentials(databaseUrl, platform.organizationId);
  const seeded = await seedBillingRun(platform, db, {
    subscriptions: SUBSCRIPTIONS,
    leadSeconds: 2,
    // A card of the fake gateway: its charges are recorded, each with the idempotency key it came with.
    card: { gateway: 'cardgw_a', gatewayId: 'pm_card_visa' },
  });
  return {
    platform,
    db,
    stripe,
    seeded,
    stages: billingRunStages(SUBSCRIPTIONS, seeded.cards),
    // Every stage counted on every poll: the kill acts on the count of the moment.
    poller: new StagePoller(db, platform.organizationId, seeded.due, 1),
    start: Math.max(seeded.due.getTime(), seeded.seeded.getTime()),
  };
}

/** Polls the stages until `done` says so; fails with every stage's count when the run stalls. */
async function waitForStages(run: Run, what: string, done: (stages: Stage[]) => boolean): Promise<void> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    await run.poller.poll(run.stages, run.start);
    if (done(run.stages)) return;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}: ${run.stages.map((stage) => `${stage.name} ${stage.done}/${stage.target}`).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const everyStageDone = (stages: Stage[]) => stages.every((stage) => stage.done >= stage.target);

/** What the run made, checked as bench:billing-run checks it, plus the card gateway's own record. */
async function expectExactlyOnce(run: Run): Promise<void> {
  const { problems } = await billingRunProblems(run.db, run.platform.organizationId, {
    subscriptions: SUBSCRIPTIONS,
    cards: run.seeded.cards,
    seeded: run.seeded.seeded,
  });
  expect(problems).toEqual([]);
  // Each card invoice charged once at the gateway: one charge per attempt, every key an attempt of its own invoice.
  const attempts = await run.db.query<{ id: string }>(
    'select id from payments.payment_attempt where organization_id = $1 order by id',
    [run.platform.organizationId],
  );
  const keys = run.stripe.charges.map((charge) => charge.idempotencyKey).sort();
  expect(keys).toEqual(attempts.rows.map((row) => row.id).sort());
  expect(new Set(keys).size).toBe(run.seeded.cards);
  expect(run.stripe.charges.every((charge) => charge.status === 'succeeded')).toBe(true);
}

/** The stage whose progress shows the service at work, and how far into it the kill comes. */
const VICTIMS: Array<{ service: ServiceName; stage: number }> = [
  { service: 'invoicing', stage: 1 },
  { service: 'analytics', stage: 2 },
  { service: 'payments', stage: 3 },
];

describe(`the billing run of ${SUBSCRIPTIONS} subscriptions`, () => {
  beforeEach(() => {
    expect(SUBSCRIPTIONS).toBeGreaterThanOrEqual(20);
  });

  for (const { service, stage } of VICTIMS) {
    it(
      `survives kill -9 of ${service} in the middle: everything once`,
      async () => {
        const run = await startRun();
        const target = run.stages[stage]!.target;
        // In the middle: a fifth of the service's work done, and not all of it.
        await waitForStages(run, `${service} to be under way`, (stages) => stages[stage]!.done >= target / 5);
        await run.platform.kill(service);
        await run.poller.poll(run.stages, run.start);
        expect(run.stages[stage]!.done).toBeLessThan(target);
        run.platform.restart(service);
        await waitForStages(run, 'the run to end after the restart', everyStageDone);
        await expectExactlyOnce(run);
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    'is made once by two invoicing processes consuming together',
    async () => {
      const run = await startRun({ invoicing: 2 });
      await waitForStages(run, 'the run to end', everyStageDone);
      await expectExactlyOnce(run);
    },
    TEST_TIMEOUT_MS,
  );
});
