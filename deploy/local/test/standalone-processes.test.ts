/**
 * The production shape: the accounts, subscriptions and invoicing services and the gateway as
 * separate processes (an account's GET embeds its subscriptions and draft invoice lines), each started
 * from its built entry point and configured only by environment, talking over gRPC; an operator
 * creates the organization with the admin CLI. SIGTERM stops each with exit status 0, and a bad
 * environment stops a service at once with a message naming the variable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestSchema, type TestSchema, testDatabaseUrl, testNatsUrl, uniqueName, waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  type ChildHandle,
  ENTRY_POINTS,
  exitWithin,
  runEntryPoint,
  startEntryPoint,
} from './support/entry-points.js';
import { freePort } from './support/ports.js';
import { accountInput, restClient } from './support/rest-client.js';

/** A graceful stop drains gRPC calls (up to 5 s when busy); an idle process needs far less. */
const STOP_WITHIN_MS = 5_000;

let accountsSchema: TestSchema;
let subscriptionsSchema: TestSchema;
let invoicingSchema: TestSchema;
let gatewaySchema: TestSchema;
let accounts: ChildHandle | undefined;
let subscriptions: ChildHandle | undefined;
let invoicing: ChildHandle | undefined;
let mailOutbox: string;
let gateway: ChildHandle | undefined;
let gatewayUrl: string;
/** PGAPPNAME tags every database connection of a process, so a test can find and cut them. */
const applicationNames = {
  accounts: uniqueName('accounts_process'),
  subscriptions: uniqueName('subscriptions_process'),
  invoicing: uniqueName('invoicing_process'),
  gateway: uniqueName('gateway_process'),
};

/** What a PostgreSQL restart or failover does to a running service: its connections are cut. */
async function terminateConnections(names: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select count(pg_terminate_backend(pid))::int as terminated from pg_stat_activity where application_name = any($1)',
      [names],
    );
    return rows[0].terminated;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  assertBuilt();
  accountsSchema = await createTestSchema('accounts');
  subscriptionsSchema = await createTestSchema('subscriptions');
  invoicingSchema = await createTestSchema('invoicing');
  gatewaySchema = await createTestSchema('gateway');
  mailOutbox = mkdtempSync(path.join(tmpdir(), 'standalone-mail-'));
  const grpcPort = await freePort();
  const subscriptionsPort = await freePort();
  const invoicingPort = await freePort();
  const httpPort = await freePort();
  accounts = startEntryPoint(ENTRY_POINTS.accounts, {
    DATABASE_URL: accountsSchema.databaseUrl,
    DB_SCHEMA: accountsSchema.schema,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    PGAPPNAME: applicationNames.accounts,
  });
  subscriptions = startEntryPoint(ENTRY_POINTS.subscriptions, {
    DATABASE_URL: subscriptionsSchema.databaseUrl,
    DB_SCHEMA: subscriptionsSchema.schema,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(subscriptionsPort),
    ACCOUNTS_ADDRESS: `127.0.0.1:${grpcPort}`,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    PGAPPNAME: applicationNames.subscriptions,
  });
  invoicing = startEntryPoint(ENTRY_POINTS.invoicing, {
    DATABASE_URL: invoicingSchema.databaseUrl,
    DB_SCHEMA: invoicingSchema.schema,
    NATS_URL: testNatsUrl(),
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(invoicingPort),
    ACCOUNTS_ADDRESS: `127.0.0.1:${grpcPort}`,
    MAIL_OUTBOX_DIR: mailOutbox,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    PGAPPNAME: applicationNames.invoicing,
  });
  gateway = startEntryPoint(ENTRY_POINTS.gateway, {
    DATABASE_URL: gatewaySchema.databaseUrl,
    DB_SCHEMA: gatewaySchema.schema,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    ACCOUNTS_ADDRESS: `127.0.0.1:${grpcPort}`,
    SUBSCRIPTIONS_ADDRESS: `127.0.0.1:${subscriptionsPort}`,
    INVOICING_ADDRESS: `127.0.0.1:${invoicingPort}`,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    PGAPPNAME: applicationNames.gateway,
  });
  gatewayUrl = `http://127.0.0.1:${httpPort}`;
});

afterAll(async () => {
  // Only if a test failed before stopping them: nothing may outlive the suite.
  for (const handle of [gateway, invoicing, subscriptions, accounts]) {
    if (handle && !handle.exited()) {
      handle.child.kill('SIGKILL');
      await handle.exit;
    }
  }
  await accountsSchema?.drop();
  await subscriptionsSchema?.drop();
  await invoicingSchema?.drop();
  rmSync(mailOutbox, { recursive: true, force: true });
  await gatewaySchema?.drop();
});

describe('accounts, subscriptions, invoicing and gateway as separate processes', () => {
  let token: string;

  it('an organization made with the admin CLI can POST and GET an account through the gateway process', async () => {
    const created = await runEntryPoint(ENTRY_POINTS.admin, ['create-org', '--name', 'Standalone ApS'], {
      DATABASE_URL: accountsSchema.databaseUrl,
      DB_SCHEMA: accountsSchema.schema,
    });
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    token = JSON.parse(created.stdout).token.token;
    const api = restClient(gatewayUrl, token);

    // Bounded wait for every process to be up (a list per service, through the gateway); a process
    // that died ends the wait at once. The account read below reaches accounts only (its sets come
    // from the read model), so without this the next test could cut a service still starting.
    const ready = await waitFor(
      async () => {
        if ([accounts, subscriptions, invoicing, gateway].some((handle) => handle!.exited())) return 'a process exited';
        for (const list of ['/api/v1/accounts/', '/api/v1/subscriptions/', '/api/v1/invoices/']) {
          if ((await api.get(list)).status !== 200) return false;
        }
        return 'ready';
      },
      { timeoutMs: 30_000, intervalMs: 100, description: 'every process to serve through the gateway' },
    );
    expect(
      ready,
      `accounts:\n${accounts!.output()}\nsubscriptions:\n${subscriptions!.output()}\ninvoicing:\n${invoicing!.output()}\ngateway:\n${gateway!.output()}`,
    ).toBe('ready');

    const posted = await api.post('/api/v1/accounts/', accountInput('standalone-1'));
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject(accountInput('standalone-1'));
    expect(await api.get('/api/v1/accounts/standalone-1/')).toEqual({ status: 200, body: posted.body });
  });

  it('both survive their database connections being cut, and serve again on fresh ones', async () => {
    // Idle pooled connections are among those cut: an unhandled pool 'error' event would kill the process.
    expect(await terminateConnections(Object.values(applicationNames))).toBeGreaterThan(1);
    const api = restClient(gatewayUrl, token);
    const served = await waitFor(
      async () => {
        if ([accounts, subscriptions, invoicing, gateway].some((handle) => handle!.exited())) return 'a process exited';
        return (await api.get('/api/v1/accounts/standalone-1/')).status === 200 && 'served';
      },
      { timeoutMs: 10_000, intervalMs: 100, description: 'a request served after the connections were cut' },
    );
    const outputs = { accounts, subscriptions, invoicing, gateway };
    expect(
      served,
      Object.entries(outputs)
        .map(([name, handle]) => `${name}:\n${handle!.output()}`)
        .join('\n'),
    ).toBe('served');
  });

  it('SIGTERM stops the gateway and then the services, each with exit status 0', async () => {
    const processes = { gateway: gateway!, invoicing: invoicing!, subscriptions: subscriptions!, accounts: accounts! };
    for (const [name, handle] of Object.entries(processes)) {
      expect(handle.exited(), `${name} had already exited:\n${handle.output()}`).toBeNull();
      handle.child.kill('SIGTERM');
      expect(await exitWithin(handle, STOP_WITHIN_MS), handle.output()).toEqual({ code: 0, signal: null });
    }
    // Gone for real: the gateway's port no longer answers.
    await expect(fetch(`${gatewayUrl}/api/v1/accounts/`)).rejects.toThrow();
  });
});

describe('a bad environment', () => {
  it.each([
    [
      'accounts without DATABASE_URL',
      ENTRY_POINTS.accounts,
      { NATS_URL: testNatsUrl() },
      'accounts: invalid configuration\n  DATABASE_URL: required, but not set\n',
    ],
    [
      'the gateway with a DATABASE_URL that is not PostgreSQL',
      ENTRY_POINTS.gateway,
      { DATABASE_URL: 'mysql://root@127.0.0.1/billing' },
      'gateway: invalid configuration\n  DATABASE_URL: Invalid URL\n',
    ],
  ])('%s: exits 1 at once, printing which variable is wrong', async (_, script, env, message) => {
    const handle = startEntryPoint(script, env);
    expect(await exitWithin(handle, 10_000)).toEqual({ code: 1, signal: null });
    expect(handle.stderr()).toBe(message);
  });

  /**
   * A service's own settings (its workers', its mail's, its exports') are checked with the rest,
   * before it connects anywhere: nothing listens at these addresses, so a check made only once
   * connected would never be reached (NATS retries its first connection) or would print another error.
   */
  const NOWHERE = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', NATS_URL: 'nats://127.0.0.1:1' };
  it.each([
    ['subscriptions' as const, 'SCHEDULER_CONCURRENCY', '0', 'Too small: expected number to be >=1'],
    ['subscriptions' as const, 'EXPORT_WORKER_INTERVAL_MS', '5', 'Too small: expected number to be >=10'],
    ['invoicing' as const, 'INVOICING_CHARGE_CONSUMERS', '0', 'Too small: expected number to be >=1'],
    ['invoicing' as const, 'EINVOICE_ACCESS_POINT_URL', 'nowhere', 'Invalid URL'],
    ['payments' as const, 'PAYMENTS_CHARGE_CONCURRENCY', '0', 'Too small: expected number to be >=1'],
    ['payments' as const, 'CARDGW_A_API_URL', 'stripe', 'Invalid URL'],
    ['accounts' as const, 'WEBHOOKS_ENDPOINT_CONCURRENCY', '0', 'Too small: expected number to be >=1'],
    ['accounts' as const, 'EXPORT_WORKER_INTERVAL_MS', 'abc', 'Invalid input: expected number, received NaN'],
    ['analytics' as const, 'EXPORT_WORKER_INTERVAL_MS', '5', 'Too small: expected number to be >=10'],
  ])('%s with %s=%s: exits 1 before connecting, naming it', async (service, variable, value, problem) => {
    const handle = startEntryPoint(ENTRY_POINTS[service], { ...NOWHERE, [variable]: value });
    expect(await exitWithin(handle, 10_000), handle.output()).toEqual({ code: 1, signal: null });
    expect(handle.stderr()).toBe(`${service}: invalid configuration\n  ${variable}: ${problem}\n`);
  });

  it('npm start with SCHEDULER_CONCURRENCY=0: exits 1 before starting anything, naming it', async () => {
    const handle = startEntryPoint(ENTRY_POINTS.start, { ...NOWHERE, SCHEDULER_CONCURRENCY: '0' });
    expect(await exitWithin(handle, 10_000), handle.output()).toEqual({ code: 1, signal: null });
    expect(handle.stderr()).toBe(
      'subscriptions: invalid configuration\n  SCHEDULER_CONCURRENCY: Too small: expected number to be >=1\n',
    );
  });

  it('invoicing with SMTP_URL and no MAIL_FROM: exits 1 before connecting, naming MAIL_FROM', async () => {
    const handle = startEntryPoint(ENTRY_POINTS.invoicing, { ...NOWHERE, SMTP_URL: 'smtp://127.0.0.1:1' });
    expect(await exitWithin(handle, 10_000), handle.output()).toEqual({ code: 1, signal: null });
    expect(handle.stderr()).toBe('invoicing: invalid configuration\n  MAIL_FROM: required, but not set\n');
  });
});
