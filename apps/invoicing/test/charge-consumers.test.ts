/**
 * INVOICING_CHARGE_CONSUMERS: a process pulls that many batches of charge.created at once from the
 * shared durable, as that many replicas would (the numbers stay gapless: invoice-numbers.test.ts
 * issues from two workers at once; bench/test/billing-run-faults.test.ts runs two replicas). The
 * pulls waiting on the server are what shows it.
 */
import { JetStreamBus, streamNameFor } from '@billing/events';
import { createLogger } from '@billing/observability';
import { type RunningService, startService } from '@billing/runtime';
import { createTestSchema, TestClock, type TestSchema, testNatsUrl, waitFor } from '@billing/testing';
import { afterEach, expect, it } from 'vitest';
import { chargeConsumerName } from '../src/events/charge-consumer.js';
import { createInvoicingModule } from '../src/service.js';

let database: TestSchema | undefined;
let service: RunningService | undefined;
let bus: JetStreamBus | undefined;

afterEach(async () => {
  await service?.stop();
  await bus?.close();
  await database?.drop();
  service = bus = database = undefined;
});

/** Starts invoicing with `env` and answers how many pulls its charge durable has waiting once idle. */
async function waitingPulls(env: NodeJS.ProcessEnv): Promise<number> {
  database = await createTestSchema('invoicing');
  bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'charge-consumers-test' });
  const saved = process.env.INVOICING_CHARGE_CONSUMERS;
  if (env.INVOICING_CHARGE_CONSUMERS === undefined) delete process.env.INVOICING_CHARGE_CONSUMERS;
  else process.env.INVOICING_CHARGE_CONSUMERS = env.INVOICING_CHARGE_CONSUMERS;
  try {
    service = await startService(createInvoicingModule(), {
      databaseUrl: database.databaseUrl,
      schema: database.schema,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock: new TestClock('2026-11-01T00:00:00Z'),
      logger: createLogger('invoicing', 'silent'),
      bus,
      migrateOnStart: true,
    });
  } finally {
    if (saved === undefined) delete process.env.INVOICING_CHARGE_CONSUMERS;
    else process.env.INVOICING_CHARGE_CONSUMERS = saved;
  }
  const stream = streamNameFor('subscriptions');
  const durable = chargeConsumerName(database.schema);
  const waiting = async () => (await bus!.durableLag(stream, durable)).waitingPulls;
  // Each loop pulls as soon as it starts, and again at once when a pull ends: the count settles.
  await waitFor(async () => (await waiting()) > 0, { timeoutMs: 10_000, description: `pulls waiting on ${durable}` });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return waiting();
}

it('pulls one batch of charges at a time by default', async () => {
  expect(await waitingPulls({})).toBe(1);
});

it('pulls as many as INVOICING_CHARGE_CONSUMERS says', async () => {
  expect(await waitingPulls({ INVOICING_CHARGE_CONSUMERS: '3' })).toBe(3);
});
