import { AppError, StatusCode } from '@billing/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../../src/http/index.js';
import { ACME_TOKEN, DISABLED_TOKEN } from './support/fake-authenticator.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const WIDGETS = '/api/v1/widgets/';

describe('token authentication', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
  });
  afterAll(() => app.close());

  it('lets a valid token in', async () => {
    const response = await app.request('GET', WIDGETS);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it.each([
    ['no Authorization header', undefined],
    ['a bare token', ACME_TOKEN],
    ['another scheme', `Bearer ${ACME_TOKEN}`],
    ['the scheme in lower case', `token ${ACME_TOKEN}`],
    ['two spaces', `Token  ${ACME_TOKEN}`],
    ['an empty token', 'Token '],
    ['only the scheme', 'Token'],
    ['an unknown token', 'Token no-such-token'],
    ['a disabled token', `Token ${DISABLED_TOKEN}`],
  ])('answers %s with 401 Invalid token. and WWW-Authenticate', async (_case, authorization) => {
    const response = await app.request('GET', WIDGETS, { headers: { Authorization: authorization } });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
    expect(response.headers.get('www-authenticate')).toBe('Token');
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('requires X-Client-System after a valid token', async () => {
    const response = await app.request('GET', WIDGETS, { headers: { 'X-Client-System': undefined } });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'X-Client-System header is required.' });
    expect(response.headers.get('www-authenticate')).toBe('Token');
  });

  it('treats a blank X-Client-System as missing', async () => {
    const response = await app.request('GET', WIDGETS, { headers: { 'X-Client-System': '   ' } });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'X-Client-System header is required.' });
  });

  it('checks the token before X-Client-System', async () => {
    const response = await app.request('GET', WIDGETS, {
      headers: { Authorization: 'Token wrong', 'X-Client-System': undefined },
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
  });

  it('answers 403 when the token lacks the route permission', async () => {
    const response = await app.request('GET', '/api/v1/widgets/secret/');

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('serves public routes without token or X-Client-System, with a null principal', async () => {
    const response = await app.request('GET', '/api/v1/ping/', {
      headers: { Authorization: undefined, 'X-Client-System': undefined },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ pong: true, principal: null });
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('an identity service that cannot answer', () => {
  it('is 503, not 401: the token may well be valid', async () => {
    const down: Authenticator = {
      authenticate: async () => {
        throw new AppError({ code: StatusCode.UNAVAILABLE, reason: 'DOWN', message: 'identity is down' });
      },
    };
    const app = await startWidgetApp({ authenticator: down });
    try {
      const response = await app.request('GET', WIDGETS, { headers: { 'X-Request-ID': 'req-down' } });

      expect(response.status).toBe(503);
      expect(response.body).toEqual({ detail: 'Service temporarily unavailable.', request_id: 'req-down' });
    } finally {
      await app.close();
    }
  });
});
