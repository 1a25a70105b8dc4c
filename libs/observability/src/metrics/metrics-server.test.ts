import { afterEach, describe, expect, it } from 'vitest';
import { invoicesIssuedTotal } from './business-metrics.js';
import { type RunningMetricsServer, startMetricsServer } from './metrics-server.js';

let server: RunningMetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = (name: string) => ({ name, check: async () => {} });
const failing = (name: string, message: string) => ({
  name,
  check: async () => {
    throw new Error(message);
  },
});

describe('the metrics server', () => {
  it('serves the registry in Prometheus text format, with the process metrics', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0, readiness: [] });
    invoicesIssuedTotal.inc(2);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('\nbilling_invoices_issued_total 2\n');
    expect(text).toMatch(/\nprocess_cpu_user_seconds_total \d/);
    expect(text).toMatch(/\nnodejs_eventloop_lag_seconds \d/);
  });

  it('answers /healthz while it runs, and /readyz 200 only when every check passes', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0, readiness: [ok('postgres'), ok('nats')] });
    const health = await fetch(`${server.url}/healthz`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'alive' } });
    const ready = await fetch(`${server.url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { postgres: 'ok', nats: 'ok' } },
    });
  });

  it('answers /readyz 503 naming the check that failed or hung', async () => {
    const hanging = { name: 'nats', check: () => new Promise<void>(() => {}) };
    server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      readiness: [failing('postgres', 'connect ECONNREFUSED 127.0.0.1:1'), hanging],
    });
    const ready = await fetch(`${server.url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({
      status: 503,
      body: {
        status: 'not ready',
        checks: { postgres: 'connect ECONNREFUSED 127.0.0.1:1', nats: 'no answer within 2000 ms' },
      },
    });
  });

  it('answers 404 to any other path', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0, readiness: [] });
    const response = await fetch(`${server.url}/api/v1/`);
    expect(response.status).toBe(404);
  });
});
