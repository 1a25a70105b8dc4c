/**
 * INVOICING_CHARGE_CONSUMERS, as an operator sets it on the built service (dist/main.js): a process
 * pulls that many batches of charge.created at once from the shared durable, as that many replicas
 * would (the numbers stay gapless: invoice-numbers.test.ts issues from two workers at once;
 * bench/test/billing-run-faults.test.ts runs two replicas). The pulls waiting on the server are
 * what shows it. A value out of range stops the process at start, naming the variable.
 */
import { once } from 'node:events';
import path from 'node:path';
import { JetStreamBus, streamNameFor } from '@billing/events';
import {
  type BuiltService,
  createTestSchema,
  startBuiltService,
  type TestSchema,
  testNatsUrl,
  waitFor,
} from '@billing/testing';
import { afterEach, expect, it } from 'vitest';
import { chargeConsumerName } from '../src/events/charge-consumer.js';

const MAIN = path.resolve(import.meta.dirname, '../dist/main.js');

let database: TestSchema | undefined;
let service: BuiltService | undefined;
let bus: JetStreamBus | undefined;

afterEach(async () => {
  await service?.kill();
  await bus?.close();
  await database?.drop();
  service = bus = database = undefined;
});

/** The invoicing process on a schema of its own, with `variables` added to its environment. */
async function startInvoicing(variables: Record<string, string>): Promise<BuiltService> {
  database = await createTestSchema('invoicing');
  service = startBuiltService(MAIN, {
    DATABASE_URL: database.databaseUrl,
    DB_SCHEMA: database.schema,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...variables,
  });
  return service;
}

/** How many pulls the process's charge durable has waiting once it is up and idle. */
async function waitingPulls(): Promise<number> {
  bus = await JetStreamBus.connect({ servers: testNatsUrl(), name: 'charge-consumers-test' });
  const stream = streamNameFor('subscriptions');
  const durable = chargeConsumerName(database!.schema);
  const waiting = async () => (await bus!.durableLag(stream, durable).catch(() => null))?.waitingPulls ?? 0;
  // Each loop pulls as soon as it starts, and again at once when a pull ends: the count settles.
  await waitFor(async () => ((await waiting()) > 0 ? true : undefined), {
    timeoutMs: 20_000,
    description: `pulls waiting on ${durable}`,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  return waiting();
}

it('pulls one batch of charges at a time by default', async () => {
  await startInvoicing({});
  expect(await waitingPulls()).toBe(1);
});

it('pulls as many as INVOICING_CHARGE_CONSUMERS says', async () => {
  await startInvoicing({ INVOICING_CHARGE_CONSUMERS: '3' });
  expect(await waitingPulls()).toBe(3);
});

it('refuses to start with INVOICING_CHARGE_CONSUMERS=0, naming it', async () => {
  const { child, stderr } = await startInvoicing({ INVOICING_CHARGE_CONSUMERS: '0' });
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).not.toBe(0);
  expect(stderr()).toContain('INVOICING_CHARGE_CONSUMERS');
});
