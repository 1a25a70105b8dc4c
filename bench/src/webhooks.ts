import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { createAccountsModule, createOrganization } from '@billing/accounts';
import { systemClock } from '@billing/clock';
import { type EventEnvelope, encodeEnvelope } from '@billing/events';
import { createGrpcClient } from '@billing/grpc';
import { createLogger } from '@billing/observability';
import { accountsV1, invoiceEventsV1, webhooksV1 } from '@billing/proto';
import { startService } from '@billing/runtime';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { benchRun, optionsOrExit } from './command-line.js';
import { ensureDatabase } from './database.js';
import { parseWebhookOptions, type WebhookBenchOptions } from './webhook-options.js';
import { startBenchReceiver } from './webhook-receiver.js';

/**
 * Benchmark: N webhook deliveries to a local receiver. The accounts service (its own migrations, a
 * throwaway schema, no NATS) gets N / W invoice.issued events handed over through
 * ReadModelService.ApplyEvents, as invoicing hands them over; W webhooks take every event, so each
 * event makes W deliveries, which the service's dispatcher signs and POSTs (C at a time per
 * endpoint, --endpoint-concurrency, endpoints side by side). Measured: deliveries per second from the first hand-over to
 * the last arrival, and the event-to-delivery latency (hand-over call started → request arrived).
 * Baseline in the same run: the same N signed bodies POSTed straight to the same endpoints by
 * W x C loops (C per endpoint, no database): what the HTTP work alone costs. Prints both rates and the
 * ratio.
 */

const options: WebhookBenchOptions = optionsOrExit(() => parseWebhookOptions(process.argv.slice(2), process.env));
const { log, cleanups, runCleanups, state } = benchRun('bench:webhooks', 'dropping the schema');

function invoiceIssued(organizationId: string): EventEnvelope {
  const now = new Date();
  const invoice = randomUUID();
  const payload = Buffer.from(
    invoiceEventsV1.InvoiceChanged.encode({
      invoice: {
        uuid: invoice,
        invoice_number: '1',
        external_invoice_number: '',
        account: randomUUID(),
        account_code: 'bench',
        date: '2026-11-25',
        due_date: '2026-12-09',
        currency: 'DKK',
        status: 'open',
        collection_method: 'invoice',
        total: '125.00',
        subtotal: '100.00',
        vat: '25.00',
        balance: '125.00',
        imported: false,
        import_source: '',
        lines: [],
        created_date: now,
        last_modified_date: now,
        is_credit_note: false,
        payment_terms: 14,
        vat_breakdown: [],
        reverse_charge: false,
        vat_note: '',
        language: 'en',
        po_number: '',
        version: 1,
        reminders: [],
      },
    }).finish(),
  );
  return {
    event_id: randomUUID(),
    event_type: 'invoice.issued',
    schema_version: 1,
    organization_id: organizationId,
    occurred_at: now,
    request_id: randomUUID(),
    aggregate_type: 'invoice',
    aggregate_id: invoice,
    payload_type: 'billing.events.v1.InvoiceChanged',
    payload,
  };
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** One signed POST, as the service's sender makes it (no keep-alive, JSON body). */
function post(url: string, secret: string, id: string, body: string): Promise<void> {
  const now = new Date();
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers, agent: false }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
    request.end(body);
  });
}

try {
  await ensureDatabase(options.databaseUrl);
  const schema = `bench_webhooks_${randomUUID().slice(0, 8)}_accounts`;
  const receiver = await startBenchReceiver();
  cleanups.push(() => receiver.close());
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });
  log(`starting the accounts service on ${schema}`);
  const service = await startService(
    createAccountsModule({ webhooks: { endpointConcurrency: options.endpointConcurrency } }),
    {
      databaseUrl: options.databaseUrl,
      schema,
      grpcHost: '127.0.0.1',
      grpcPort: 0,
      clock: systemClock,
      logger: createLogger('bench', 'warn'),
      bus: null,
      migrateOnStart: true,
    },
  );
  cleanups.push(() => service.stop());
  const webhookClient = createGrpcClient(webhooksV1.WebhookServiceClient, service.address, {
    defaultDeadlineMs: 60_000,
  });
  const readModel = createGrpcClient(accountsV1.ReadModelServiceClient, service.address, { defaultDeadlineMs: 60_000 });
  cleanups.push(async () => {
    webhookClient.close();
    readModel.close();
  });
  const { organization } = await createOrganization({ orm: service.orm, clock: systemClock }, { name: 'Bench' });
  const context = { requestId: 'bench', organizationId: organization.id };
  const endpoints: Array<{ path: string; secret: string }> = [];
  for (let index = 0; index < options.webhooks; index++) {
    const path = `/hook-${index}`;
    const reply = await webhookClient.call(
      'createWebhook',
      { webhook: { endpoint: receiver.url(path), events: ['new_invoice'] }, present_fields: ['endpoint', 'events'] },
      { context },
    );
    endpoints.push({ path, secret: reply.secret });
  }

  // The service: events handed over in batches, deliveries made and POSTed by the dispatcher.
  const events = options.deliveries / options.webhooks;
  log(`handing over ${events} events to ${options.webhooks} webhooks: ${options.deliveries} deliveries`);
  const handedOver = new Map<string, number>();
  const started = performance.now();
  for (let first = 0; first < events; first += options.batch) {
    const batch = Array.from({ length: Math.min(options.batch, events - first) }, () => invoiceIssued(organization.id));
    const at = performance.now();
    for (const event of batch) handedOver.set(event.event_id, at);
    await readModel.call(
      'applyEvents',
      { envelopes: batch.map((event) => Buffer.from(encodeEnvelope(event))) },
      { context },
    );
  }
  await receiver.waitFor(options.deliveries);
  const serviceSeconds = (Math.max(...receiver.arrivals.values()) - started) / 1000;
  const latencies = [...receiver.arrivals].map(([key, arrived]) => arrived - handedOver.get(key.split(' ')[1]!)!);
  latencies.sort((a, b) => a - b);

  // The baseline: the same bodies, straight to the same endpoints.
  const bodies = endpoints.map((endpoint) => receiver.bodies.get(endpoint.path)!);
  const ids = [...handedOver.keys()];
  receiver.reset();
  log(`baseline: the same deliveries POSTed by ${options.endpointConcurrency} loops per endpoint, no database`);
  const baselineStarted = performance.now();
  await Promise.all(
    endpoints.flatMap((endpoint, index) => {
      let next = 0;
      const loop = async () => {
        while (next < ids.length)
          await post(receiver.url(endpoint.path), endpoint.secret, ids[next++]!, bodies[index]!);
      };
      return Array.from({ length: options.endpointConcurrency }, loop);
    }),
  );
  await receiver.waitFor(options.deliveries);
  const baselineSeconds = (performance.now() - baselineStarted) / 1000;

  const result = {
    deliveries: options.deliveries,
    webhooks: options.webhooks,
    endpoint_concurrency: options.endpointConcurrency,
    service_per_second: Math.round(options.deliveries / serviceSeconds),
    baseline_per_second: Math.round(options.deliveries / baselineSeconds),
    ratio: Number((baselineSeconds / serviceSeconds).toFixed(3)),
    latency_ms: {
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(latencies.at(-1) ?? 0),
    },
    cores: availableParallelism(),
    load: Number(loadavg()[0]!.toFixed(2)),
  };
  console.log(
    [
      `webhooks: ${result.deliveries} deliveries to ${result.webhooks} endpoints (${options.endpointConcurrency} at a time each) on ${result.cores} cores (load ${result.load})`,
      `  service:  ${result.service_per_second} deliveries/s, event-to-delivery p50 ${result.latency_ms.p50} ms, p99 ${result.latency_ms.p99} ms, max ${result.latency_ms.max} ms`,
      `  baseline: ${result.baseline_per_second} deliveries/s (the same POSTs, no database)`,
      `  ratio:    ${result.ratio}`,
    ].join('\n'),
  );
  if (options.json) console.log(JSON.stringify(result));
} catch (error) {
  console.error('[bench:webhooks] failed:', error);
  state.exitCode = 1;
} finally {
  await runCleanups();
  process.exit(state.exitCode);
}
