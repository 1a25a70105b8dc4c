/**
 * The Kubernetes probes of the gateway process (the Helm chart's): /healthz answers while the process
 * does, /readyz only while the gateway's PostgreSQL does (every API request counts against a rate
 * limit there). The database going away and coming back is real: connections to a database of the
 * test's own are refused, then allowed again.
 */
import type { RunningGateway } from '@billing/gateway';
import { testDatabaseUrl, uniqueName, waitFor } from '@billing/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingLogger } from '../framework/support/recording-logger.js';
import { startGatewayAlone } from '../support/gateway-alone.js';

const logger = new RecordingLogger();
const database = uniqueName('gateway_probes');
let gateway: RunningGateway;

async function asAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function probe(path: string) {
  const response = await fetch(`${gateway.url}${path}`);
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body: await response.json() };
}

beforeAll(async () => {
  await asAdmin(`create database "${database}"`);
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${database}`;
  gateway = await startGatewayAlone({ databaseUrl: url.toString(), logger });
});

afterAll(async () => {
  await gateway?.stop();
  await asAdmin(`drop database if exists "${database}" with (force)`);
});

describe('the gateway probes', () => {
  it('/healthz and /readyz answer 200 with no token, uncached, and write no request log line', async () => {
    expect(await probe('/healthz')).toEqual({ status: 200, cacheControl: 'no-store', body: { status: 'alive' } });
    expect(await probe('/readyz')).toEqual({
      status: 200,
      cacheControl: 'no-store',
      body: { status: 'ready', checks: { postgres: 'ok' } },
    });
    expect(logger.entries.map((entry) => entry.message)).toEqual(['gateway listening']);
  });

  it('/readyz is 503 while the database refuses connections, naming the check but not why (the reason is logged), and 200 again once it accepts them; /healthz stays 200', async () => {
    await asAdmin(`alter database "${database}" with allow_connections false`);
    await asAdmin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}'`);
    try {
      expect(await probe('/readyz')).toEqual({
        status: 503,
        cacheControl: 'no-store',
        body: { status: 'not ready', checks: { postgres: 'failed' } },
      });
      expect(await probe('/healthz')).toEqual({ status: 200, cacheControl: 'no-store', body: { status: 'alive' } });
      const notReady = logger.entries.filter((entry) => entry.message === 'not ready');
      expect(notReady.map((entry) => entry.level)).toEqual(['warn']);
      expect(JSON.stringify(notReady[0]?.fields)).toContain(
        `database \\"${database}\\" is not currently accepting connections`,
      );
    } finally {
      await asAdmin(`alter database "${database}" with allow_connections true`);
    }
    const ready = await waitFor(async () => (await probe('/readyz')).status === 200, {
      timeoutMs: 10_000,
      intervalMs: 100,
      description: '/readyz to answer 200 again',
    });
    expect(ready).toBe(true);
  });
});
