/**
 * Authentication (spec "Authentication" + gaps §1), request ids, and URL rules (gaps §2):
 * trailing-slash redirects and failures, unknown paths, methods not allowed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS,
  accountPath,
  createAccount,
  expectStatus,
  INVALID_TOKEN,
  NOT_FOUND,
  newOrganization,
  RECIPIENTS,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

const CLIENT = { 'X-Client-System': 'contract-tests' };

describe('authentication', () => {
  it('accepts "Authorization: Token <token>" with X-Client-System', async () => {
    const { api, token } = await newOrganization(platform());

    const response = await api.raw(ACCOUNTS, {
      headers: { Authorization: `Token ${token}`, ...CLIENT },
    });

    expectStatus(response, 200);
    expect(response.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it.each([
    ['no Authorization header', (_token: string) => ({ ...CLIENT })],
    ['the bare token', (token: string) => ({ Authorization: token, ...CLIENT })],
    ['a Bearer token', (token: string) => ({ Authorization: `Bearer ${token}`, ...CLIENT })],
    ['an unknown token', (_token: string) => ({ Authorization: 'Token unknown', ...CLIENT })],
    ['the keyword without a token', (_token: string) => ({ Authorization: 'Token', ...CLIENT })],
    ['a token with extra parts', (token: string) => ({ Authorization: `Token ${token} extra`, ...CLIENT })],
  ])('rejects %s with 401 Invalid token.', async (_label, headers) => {
    const { api, token } = await newOrganization(platform());

    const response = await api.raw(ACCOUNTS, { headers: headers(token) });

    expectStatus(response, 401);
    expect(response.body).toEqual(INVALID_TOKEN);
    expect(response.headers.get('www-authenticate')).toBe('Token');
  });

  it('rejects writes without a valid token too', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.raw(ACCOUNTS, {
      method: 'POST',
      headers: { Authorization: 'Token unknown', 'Content-Type': 'application/json', ...CLIENT },
      body: JSON.stringify({ code: 'x' }),
    });

    expectStatus(response, 401);
    expect(response.body).toEqual(INVALID_TOKEN);
    expect(response.headers.get('www-authenticate')).toBe('Token');
    expect((await api.get(ACCOUNTS)).body.count).toBe(0);
  });

  it('requires X-Client-System with a valid token', async () => {
    const { api, token } = await newOrganization(platform());

    const response = await api.raw(ACCOUNTS, { headers: { Authorization: `Token ${token}` } });

    expectStatus(response, 401);
    expect(response.body).toEqual({ detail: 'X-Client-System header is required.' });
  });

  it('rejects a disabled token once the auth cache has expired', async () => {
    const organization = await newOrganization(platform());
    expectStatus(await organization.api.get(ACCOUNTS), 200);

    await platform().disableToken(organization.apiUserId);
    platform().clock.advanceSeconds(6);

    const response = await organization.api.get(ACCOUNTS);
    expectStatus(response, 401);
    expect(response.body).toEqual(INVALID_TOKEN);
    expect(response.headers.get('www-authenticate')).toBe('Token');
  });

  it('disabling one token leaves the other tokens of the organization working', async () => {
    const organization = await newOrganization(platform());
    const second = await platform().createToken(organization.organizationId);
    await createAccount(organization.api, 'shared');

    await platform().disableToken(organization.apiUserId);
    platform().clock.advanceSeconds(6);

    expectStatus(await organization.api.get(accountPath('shared')), 401);
    const response = await second.api.get(accountPath('shared'));
    expectStatus(response, 200);
    expect(response.body.code).toBe('shared');
  });
});

describe('X-Request-ID', () => {
  it.each([
    ['a successful read', async () => (await newOrganization(platform())).api.get(ACCOUNTS)],
    ['a 400', async () => (await newOrganization(platform())).api.post(ACCOUNTS, { code: 'rid' })],
    ['a 404', async () => (await newOrganization(platform())).api.get(accountPath('ghost'))],
    ['a 401', async () => (await newOrganization(platform())).api.raw(ACCOUNTS, { headers: { ...CLIENT } })],
  ])('is on %s', async (_label, call) => {
    const response = await call();
    expect(response.headers.get('x-request-id')).toMatch(/\S+/);
  });

  it('differs between requests', async () => {
    const { api } = await newOrganization(platform());
    const a = await api.get(ACCOUNTS);
    const b = await api.get(ACCOUNTS);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it("echoes the request's own valid X-Request-ID", async () => {
    const { api } = await newOrganization(platform());
    const requestId = randomUUID();

    const response = await api.get(ACCOUNTS, { headers: { 'X-Request-ID': requestId } });

    expectStatus(response, 200);
    expect(response.headers.get('x-request-id')).toBe(requestId);
  });
});

describe('trailing slash', () => {
  async function redirectOf(path: string) {
    const { api, token } = await newOrganization(platform());
    return api.raw(path, { redirect: 'manual', headers: { Authorization: `Token ${token}`, ...CLIENT } });
  }

  it('GET without the slash is 301 to the same URL with it, query kept', async () => {
    const response = await redirectOf('/api/v1/accounts?legal_country=DK&page_size=5');

    expect(response.status).toBe(301);
    const location = new URL(response.headers.get('location') ?? '', platform().baseUrl);
    expect(location.pathname).toBe('/api/v1/accounts/');
    expect(Object.fromEntries(location.searchParams)).toEqual({ legal_country: 'DK', page_size: '5' });
  });

  it('GET of an account without the slash is 301 to the account URL', async () => {
    const response = await redirectOf('/api/v1/accounts/some-code');

    expect(response.status).toBe(301);
    const location = new URL(response.headers.get('location') ?? '', platform().baseUrl);
    expect(location.pathname).toBe('/api/v1/accounts/some-code/');
    expect(location.search).toBe('');
  });

  it('POST without the slash is 404 naming the URL with the slash', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.post('/api/v1/accounts', { code: 'x' });

    expectStatus(response, 404);
    expect(response.body).toEqual({ detail: 'URL must end with a slash: /api/v1/accounts/' });
    expect((await api.get(ACCOUNTS)).body.count).toBe(0);
  });

  it.each([
    ['PUT', '/api/v1/accounts/slashless'],
    ['PATCH', '/api/v1/accounts/slashless'],
    ['DELETE', '/api/v1/accounts/slashless'],
    ['POST', '/api/v1/recipients'],
    ['POST', '/api/v1/accounts/slashless/payment-gateways'],
  ])('%s %s is 404 naming the URL with the slash', async (method, path) => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'slashless');

    const response =
      method === 'PUT'
        ? await api.put(path, { company_name: 'x' })
        : method === 'PATCH'
          ? await api.patch(path, { company_name: 'x' })
          : method === 'DELETE'
            ? await api.delete(path)
            : await api.post(path, []);

    expectStatus(response, 404);
    expect(response.body).toEqual({ detail: `URL must end with a slash: ${path}/` });
    expectStatus(await api.get(accountPath('slashless')), 200);
  });
});

describe('unknown paths and methods', () => {
  it.each(['/api/v1/does-not-exist/', '/api/v1/accounts/any/unknown-action/', '/api/v2/accounts/'])(
    'GET %s is 404 Not found.',
    async (path) => {
      const { api } = await newOrganization(platform());

      const response = await api.get(path);

      expectStatus(response, 404);
      expect(response.body).toEqual(NOT_FOUND);
    },
  );

  it.each([
    ['DELETE', ACCOUNTS],
    ['PUT', ACCOUNTS],
    ['PATCH', ACCOUNTS],
    ['POST', accountPath('existing')],
    ['DELETE', `${accountPath('existing')}payment-gateways/`],
    ['PUT', RECIPIENTS],
    ['DELETE', RECIPIENTS],
  ])('%s %s is 405', async (method, path) => {
    const { api } = await newOrganization(platform());
    await createAccount(api, 'existing');

    const response =
      method === 'DELETE'
        ? await api.delete(path)
        : method === 'PUT'
          ? await api.put(path, {})
          : method === 'PATCH'
            ? await api.patch(path, {})
            : await api.post(path, {});

    expectStatus(response, 405);
    expect(response.body).toEqual({ detail: `Method "${method}" not allowed.` });
    expect((await api.get(ACCOUNTS)).body.count).toBe(1);
  });
});
