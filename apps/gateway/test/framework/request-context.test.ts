import { TestClock } from '@billing/clock';
import { createLogger } from '@billing/observability';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpApp, hidePathInLog, listen } from '../../src/http/index.js';
import { InMemoryRateLimiter } from '../../src/rate-limit/index.js';
import { FakeAuthenticator } from './support/fake-authenticator.js';
import { DEFAULT_HEADERS, send, startWidgetApp, type WidgetApp } from './support/widget-app.js';
import { WidgetStore, widgetRoutes } from './support/widget-routes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request id, context and access log', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
  });
  afterAll(() => app.close());

  it('keeps a valid client X-Request-ID', async () => {
    const response = await app.request('GET', '/api/v1/widgets/', { headers: { 'X-Request-ID': 'client-req.42:a' } });

    expect(response.headers.get('x-request-id')).toBe('client-req.42:a');
  });

  it('replaces an unusable X-Request-ID with a fresh one', async () => {
    const response = await app.request('GET', '/api/v1/widgets/', { headers: { 'X-Request-ID': 'has spaces' } });

    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });

  it.each([
    ['a success', 'GET', '/api/v1/widgets/', {}],
    ['a redirect', 'GET', '/api/v1/widgets', {}],
    ['an unknown path', 'GET', '/nope/', {}],
    ['a slash refusal', 'POST', '/api/v1/widgets', {}],
    ['a 405', 'DELETE', '/api/v1/widgets/', {}],
    ['a 401', 'GET', '/api/v1/widgets/', { Authorization: undefined }],
    ['a 415', 'POST', '/api/v1/widgets/', { 'Content-Type': 'text/plain' }],
    ['the schema', 'GET', '/api/schema/', {}],
  ])('sends X-Request-ID on %s', async (_case, method, path, headers) => {
    const response = await app.request(method, path, {
      headers,
      ...(method === 'POST' ? { body: 'x' } : {}),
    });

    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });

  it('runs the handler inside the request context: id, organization, API user, X-Client-System, X-User', async () => {
    const response = await app.request('GET', '/api/v1/widgets/context/', {
      headers: { 'X-Request-ID': 'req-ctx', 'X-Client-System': 'erp-sync', 'X-User': 'jane@example.com' },
    });

    const context = {
      requestId: 'req-ctx',
      clientSystem: 'erp-sync',
      externalUser: 'jane@example.com',
      organizationId: 'org-acme',
      apiUserId: 'api-user-acme',
    };
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      context,
      fromStorage: context,
      principal: {
        organizationId: 'org-acme',
        apiUserId: 'api-user-acme',
        apiUserName: 'API USER',
        rateLimitPerMinute: 1000,
        permissions: ['billing_read'],
      },
    });
  });

  it('reads X-User as UTF-8 and leaves it out when absent', async () => {
    const withUser = await fetch(`${app.url}/api/v1/widgets/context/`, {
      headers: {
        Authorization: 'Token acme-token-1234567890',
        'X-Client-System': 'erp',
        // Header values travel as bytes; this is "Søren" in UTF-8.
        'X-User': Buffer.from('Søren', 'utf8').toString('latin1'),
      },
    });
    const withoutUser = await app.request('GET', '/api/v1/widgets/context/');

    expect(((await withUser.json()) as { context: { externalUser: string } }).context.externalUser).toBe('Søren');
    expect((withoutUser.body as { context: Record<string, unknown> }).context).not.toHaveProperty('externalUser');
  });

  it('writes one access log line per request with the caller and the outcome', async () => {
    await app.request('GET', '/api/v1/widgets/?name=secret-search', {
      headers: { 'X-Request-ID': 'req-log', 'X-User': 'jane' },
    });

    await vi.waitFor(() => expect(lines('req-log')).toHaveLength(1));
    const [line] = lines('req-log');
    expect(line?.level).toBe('info');
    expect(line?.fields).toEqual({
      request_id: 'req-log',
      method: 'GET',
      path: '/api/v1/widgets/',
      route: '/api/v1/widgets/',
      status: 200,
      duration_ms: expect.any(Number),
      organization_id: 'org-acme',
      api_user_id: 'api-user-acme',
      client_system: 'framework-tests',
      external_user: 'jane',
    });
  });

  it('logs server faults at error level', async () => {
    await app.request('GET', '/api/v1/widgets/failures/plain/', { headers: { 'X-Request-ID': 'req-fault' } });

    await vi.waitFor(() => expect(lines('req-fault')).toHaveLength(1));
    expect(lines('req-fault')[0]).toMatchObject({ level: 'error', fields: { status: 500 } });
  });

  function lines(requestId: string) {
    return app.logger.accessLines().filter((entry) => entry.fields.request_id === requestId);
  }
});

describe('a path holding a secret', () => {
  it('is logged as its template (hidePathInLog), never as sent', async () => {
    const pages = express.Router({ strict: true });
    pages.get('/secret/:token/', (req, res) => {
      hidePathInLog(req, '/secret/{token}/');
      res.status(200).send('ok');
    });
    const app = await startWidgetApp({ pages: [pages] });
    try {
      const response = await app.request('GET', '/secret/s3cr3t-token/', { headers: { 'X-Request-ID': 'req-secret' } });
      expect(response.status).toBe(200);
      await vi.waitFor(() =>
        expect(app.logger.accessLines().filter((entry) => entry.fields.request_id === 'req-secret')).toHaveLength(1),
      );
      const [line] = app.logger.accessLines().filter((entry) => entry.fields.request_id === 'req-secret');
      expect(line?.fields).toMatchObject({ path: '/secret/{token}/', route: '/secret/{token}/', status: 200 });
      expect(JSON.stringify(app.logger.accessLines())).not.toContain('s3cr3t');
    } finally {
      await app.close();
    }
  });
});

describe('with the platform logger', () => {
  it('takes the pino logger of @billing/observability as it is', async () => {
    const app = createHttpApp({
      routes: widgetRoutes(new WidgetStore()),
      authenticator: new FakeAuthenticator(),
      rateLimiter: new InMemoryRateLimiter(),
      idempotencyStore: null,
      clock: new TestClock(),
      logger: createLogger('gateway', 'silent'),
    });
    const server = await listen(app);
    try {
      const response = await send(server.url, 'GET', '/api/v1/widgets/', { headers: DEFAULT_HEADERS });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
