/**
 * An export job survives the end of its worker's process (libs/exports): the service runs as its
 * own process (the built dist/main.js, as in production), is killed with SIGKILL while its export
 * worker is inside a job, and a new process runs the job again from the start and finishes it;
 * a job whose workers keep dying fails with its reason instead of staying `running`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { accountsModule, createOrganization } from '@billing/accounts';
import { INTERRUPTED_REASON } from '@billing/exports';
import { checkHealth, createGrpcClient, ServingStatus } from '@billing/grpc';
import { createLogger } from '@billing/observability';
import { exportsV1, invoicingV1 } from '@billing/proto';
import { type RunningService, startService } from '@billing/runtime';
import { createTestSchema, TestClock, type TestSchema, testNatsUrl, waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const MAIN = path.resolve(import.meta.dirname, '../dist/main.js');
const NODE = process.execPath;
/** The organization, made in the accounts service (the export asks it for the organization and accounts). */
let organizationId = '';
let context = { requestId: 'export-restart', organizationId };

let schema: TestSchema;
let accountsDatabase: TestSchema;
let accounts: RunningService;
let pool: pg.Pool;
const running = new Set<ChildProcess>();
const holds = new Set<() => Promise<void>>();

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** The invoicing service as its own process on the test schema; resolves once it serves gRPC. */
async function startProcess(): Promise<{ child: ChildProcess; address: string }> {
  const port = await freePort();
  const child = spawn(NODE, [MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: schema.databaseUrl,
      DB_SCHEMA: schema.schema,
      NATS_URL: testNatsUrl(),
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      // Metrics, health and readiness on any free port: a restarted process must not collide with itself.
      METRICS_PORT: '0',
      ACCOUNTS_ADDRESS: accounts.address,
      INVOICING_WORKER_INTERVAL_MS: '50',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const address = `127.0.0.1:${port}`;
  await waitFor(
    async () => ((await checkHealth(address).catch(() => null)) === ServingStatus.SERVING ? true : undefined),
    {
      timeoutMs: 20_000,
      description: 'the invoicing process to serve',
    },
  );
  return { child, address };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Holds the invoice table so a worker that begins a run waits inside it (its job `running`). */
async function holdInvoices(): Promise<{ release(): Promise<void> }> {
  const client = await pool.connect();
  await client.query('begin');
  await client.query('lock table invoice in access exclusive mode');
  const release = async () => {
    holds.delete(release);
    await client.query('commit');
    client.release();
  };
  holds.add(release);
  return { release };
}

const jobRow = async (uuid: string) =>
  (await pool.query('select status, attempts, rows, failure_reason from export_job where id = $1', [uuid])).rows[0];

/** Until the worker holding the job is gone from the database too (the kill ends its sessions). */
const lockReleased = (uuid: string) =>
  waitFor(
    async () => {
      const { rows } = await pool.query(
        `select count(*)::int as held from pg_locks where locktype = 'advisory' and granted
           and classid = hashtext('export_job')::oid and objid = hashtext($1 || $2)::oid`,
        [schema.schema, uuid],
      );
      return rows[0].held === 0 ? true : undefined;
    },
    { timeoutMs: 10_000, description: 'the killed worker’s lock to end' },
  );

beforeAll(async () => {
  schema = await createTestSchema('invoicing_export_restart');
  pool = new pg.Pool({ connectionString: schema.databaseUrl, options: `-c search_path=${schema.schema}` });
  accountsDatabase = await createTestSchema('invoicing_export_restart_accounts');
  const clock = new TestClock('2026-01-15T09:00:00Z');
  accounts = await startService(accountsModule, {
    databaseUrl: accountsDatabase.databaseUrl,
    schema: accountsDatabase.schema,
    grpcHost: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger: createLogger('test', 'silent'),
    bus: null,
    migrateOnStart: true,
  });
  const { organization } = await createOrganization({ orm: accounts.orm, clock }, { name: 'Export restart ApS' });
  organizationId = organization.id;
  context = { requestId: 'export-restart', organizationId };
});
afterEach(async () => {
  for (const child of [...running]) await kill(child);
  for (const release of [...holds]) await release();
});
afterAll(async () => {
  await pool.end();
  await schema.drop();
  await accounts?.stop();
  await accountsDatabase?.drop();
});

/** Issued invoices 1..n of one account, written as the service stores them. */
async function seedInvoices(n: number): Promise<void> {
  const party = JSON.stringify({
    name: 'Acme ApS',
    address: '',
    zipcode: '',
    city: '',
    country: 'DK',
    vat_number: '',
    email: '',
  });
  await pool.query(
    `insert into invoice (id, organization_id, account_id, account_code, invoice_number, external_invoice_number, date,
       due_date, currency, status, collection_method, payment_terms, subtotal, vat, total, balance, is_credit_note,
       reverse_charge, vat_note, vat_breakdown, seller, buyer, language, po_number, imported, import_source, issued_at,
       version, created_at, updated_at)
     select gen_random_uuid(), $1, $2, 'acme', n, '', '2026-01-15', '2026-01-29', 'DKK', 'open', 'invoice', 14,
       100, 25, 125, 125, false, false, '', '[{"rate":"25.00","base":"100.00","vat":"25.00"}]', $3, $3, 'da', '',
       false, '', now(), 1, now(), now()
     from generate_series(1, $4::int) as n`,
    [organizationId, randomUUID(), party, n],
  );
}

async function startExport(address: string): Promise<string> {
  const client = createGrpcClient(exportsV1.ExportServiceClient, address);
  try {
    const params = Buffer.from(invoicingV1.ListInvoicesRequest.encode({ filter: { search_accounts: [] } }).finish());
    const { job } = await client.call('startExport', { kind: 'invoices', params }, { context });
    return job!.uuid;
  } finally {
    client.close();
  }
}

it('runs a job again from the start when its worker’s process died inside it', async () => {
  const first = await startProcess();
  await seedInvoices(1200);
  const held = await holdInvoices();
  const uuid = await startExport(first.address);
  await waitFor(async () => ((await jobRow(uuid))?.status === 'running' ? true : undefined), {
    timeoutMs: 10_000,
    description: 'the job to be running',
  });
  await kill(first.child);
  await held.release();
  await lockReleased(uuid);
  expect(await jobRow(uuid)).toEqual({ status: 'running', attempts: 1, rows: '0', failure_reason: '' });

  const second = await startProcess();
  const done = await waitFor(async () => ((await jobRow(uuid))?.status === 'done' ? jobRow(uuid) : undefined), {
    timeoutMs: 20_000,
    description: 'the job to be done',
  });
  expect(done).toEqual({ status: 'done', attempts: 2, rows: '1200', failure_reason: '' });

  const client = createGrpcClient(exportsV1.ExportServiceClient, second.address);
  try {
    const { job } = await client.call('getExportJob', { uuid }, { context });
    expect(job).toMatchObject({ status: 'done', progress: 100, rows: '1200' });
    // The pages are the file's CSV records, gzip-compressed: every invoice once, newest number first.
    const numbers: string[] = [];
    for (let index = 0; index < job!.pages; index++) {
      const page = await client.call('readExportPage', { uuid, index }, { context });
      const records = gunzipSync(page.data).toString().split('\r\n').slice(0, -1);
      expect(records).toHaveLength(page.rows);
      numbers.push(...records.map((record) => record.split(',')[1]!));
    }
    expect(numbers).toEqual(Array.from({ length: 1200 }, (_, i) => String(1200 - i)));
  } finally {
    client.close();
  }
}, 120_000);

it('fails a job with its reason once its workers died inside it three times', async () => {
  const held = await holdInvoices();
  let uuid = '';
  for (let run = 1; run <= 3; run++) {
    const worker = await startProcess();
    if (run === 1) uuid = await startExport(worker.address);
    await waitFor(
      async () => {
        const row = await jobRow(uuid);
        return row?.status === 'running' && row.attempts === run ? true : undefined;
      },
      { timeoutMs: 10_000, description: `run ${run} to begin` },
    );
    await kill(worker.child);
    await lockReleased(uuid);
  }
  await held.release();

  await startProcess();
  const failed = await waitFor(async () => ((await jobRow(uuid))?.status === 'failed' ? jobRow(uuid) : undefined), {
    timeoutMs: 20_000,
    description: 'the job to fail',
  });
  expect(failed).toEqual({ status: 'failed', attempts: 4, rows: '0', failure_reason: INTERRUPTED_REASON });
}, 120_000);
