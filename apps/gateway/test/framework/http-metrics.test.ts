import { metricsRegistry } from '@billing/observability';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRoutes } from '../../src/http/probe-routes.js';
import { RecordingLogger } from './support/recording-logger.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

/** http_requests_total of one label set (0 when it has none). */
async function requests(method: string, route: string, status: number): Promise<number> {
  const series = `http_requests_total{method="${method}",route="${route}",status_code="${status}"} `;
  const line = (await metricsRegistry.metrics()).split('\n').find((entry) => entry.startsWith(series));
  return line === undefined ? 0 : Number(line.slice(series.length));
}

describe('request metrics', () => {
  let app: WidgetApp;
  let probesReady = true;
  const probeLogger = new RecordingLogger();

  beforeAll(async () => {
    const page = express.Router();
    page.get('/pages/widget/:token/', (_req, res) => {
      res.send('a page');
    });
    app = await startWidgetApp({
      pages: [page],
      probes: probeRoutes(
        [
          {
            name: 'postgres',
            check: async () => {
              if (!probesReady) throw new Error('connect ECONNREFUSED');
            },
          },
        ],
        probeLogger,
      ),
    });
  });
  afterAll(() => app.close());

  it('labels by route template, never by the path with its ids; a page by its pattern; an unknown path as unmatched', async () => {
    const uuid = '0b7e3c52-5d0a-4c1e-9a51-3f2f1d6c8e41';
    app.store.add({ uuid, name: 'Bolt' });
    expect((await app.request('POST', '/api/v1/widgets/', { body: { name: 'Nut' } })).status).toBe(201);
    expect((await app.request('GET', `/api/v1/widgets/${uuid}/`)).status).toBe(200);
    expect((await app.request('GET', '/api/v1/widgets/6f1c1c1e-1111-4111-8111-111111111111/')).status).toBe(404);
    expect((await app.request('GET', '/pages/widget/secret-token/')).status).toBe(200);
    expect((await app.request('GET', '/no/such/path/')).status).toBe(404);
    expect((await app.request('GET', '/api/v1/widgets/', { headers: { Authorization: undefined } })).status).toBe(401);

    expect({
      created: await requests('POST', '/api/v1/widgets/', 201),
      found: await requests('GET', '/api/v1/widgets/{uuid}/', 200),
      missing: await requests('GET', '/api/v1/widgets/{uuid}/', 404),
      page: await requests('GET', '/pages/widget/:token/', 200),
      unmatched: await requests('GET', 'unmatched', 404),
      unauthenticated: await requests('GET', '/api/v1/widgets/', 401),
    }).toEqual({ created: 1, found: 1, missing: 1, page: 1, unmatched: 1, unauthenticated: 1 });
    const text = await metricsRegistry.metrics();
    expect(text.includes(uuid)).toBe(false);
    expect(text.includes('secret-token')).toBe(false);
  });

  it('answers the probes before request ids, access log and metrics', async () => {
    const logged = app.logger.entries.length;
    const ready = await app.request('GET', '/readyz');
    expect({ status: ready.status, body: ready.body, requestId: ready.headers.get('x-request-id') }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { postgres: 'ok' } },
      requestId: null,
    });
    probesReady = false;
    const notReady = await app.request('GET', '/readyz');
    expect({ status: notReady.status, body: notReady.body }).toEqual({
      status: 503,
      body: { status: 'not ready', checks: { postgres: 'failed' } },
    });
    // Why goes to the log only: the API port may face the Internet.
    expect(probeLogger.entries.map((entry) => [entry.level, entry.message, entry.fields])).toEqual([
      ['warn', 'not ready', { checks: { postgres: 'connect ECONNREFUSED' } }],
    ]);
    const alive = await app.request('GET', '/healthz');
    expect({ status: alive.status, body: alive.body }).toEqual({ status: 200, body: { status: 'alive' } });
    expect(app.logger.entries.length).toBe(logged);
    expect(await requests('GET', 'unmatched', 200)).toBe(0);
    expect(await requests('GET', 'unmatched', 503)).toBe(0);
  });
});
