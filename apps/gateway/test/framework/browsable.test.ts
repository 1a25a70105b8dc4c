/**
 * The browsable read view (gaps.md §13, docs/api.md "The browsable view") through HTTP: a GET
 * whose Accept prefers HTML gets the JSON answer as a page (escaped, URLs and details linked, the
 * list's pages and filters), errors included; the token sign-in keeps a session cookie that only
 * such GETs honour (recorded as client system browsable-api); / and /api/v1/ are the API root.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOKEN } from './support/fake-authenticator.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

/** What Chromium sends for a page load. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>'&`;
const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const W3 = '33333333-3333-4333-8333-333333333333';

let app: WidgetApp;

beforeAll(async () => {
  app = await startWidgetApp();
  app.store.add({ uuid: W1, name: HOSTILE, color: 'red' });
  app.store.add({ uuid: W2, name: 'Gear', color: 'blue', active: false });
  app.store.add({ uuid: W3, name: 'Bolt', color: 'blue' });
});

afterAll(async () => {
  await app.close();
});

const browser = (headers: Record<string, string | undefined> = {}) => ({
  headers: { Accept: BROWSER_ACCEPT, Authorization: undefined, 'X-Client-System': undefined, ...headers },
});
const signedIn = (token = ACME_TOKEN) => browser({ Cookie: `billing_browsable_token=${token}` });

function unescapeHtml(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/** The JSON answer as the page shows it (its text, without the status lines). */
function shownJson(page: string): unknown {
  const pre = /<pre class="response">([\s\S]*?)<\/pre>/.exec(page)?.[1];
  if (pre === undefined) throw new Error(`no response block in ${page}`);
  return JSON.parse(unescapeHtml(pre).split('\n\n').slice(1).join('\n\n'));
}

function shownText(page: string): string {
  const pre = /<pre class="response">([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? '';
  return unescapeHtml(pre).split('\n\n').slice(1).join('\n\n');
}

async function signIn(form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${app.url}/api/browsable/sign-in/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

describe('content negotiation', () => {
  it.each([
    ['no Accept', undefined],
    ['*/*', '*/*'],
    ['JSON', 'application/json'],
    ['JSON preferred to HTML', 'text/html;q=0.5, application/json'],
  ])('answers JSON to %s', async (_case, accept) => {
    const response = await app.request('GET', `/api/v1/widgets/${W2}/`, { headers: { Accept: accept } });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toMatchObject({ uuid: W2, name: 'Gear' });
  });

  it('answers a browser with a page of the same answer, pretty-printed as DRF does, with safe headers', async () => {
    const json = await app.request('GET', `/api/v1/widgets/${W2}/`);
    const page = await app.request(
      'GET',
      `/api/v1/widgets/${W2}/`,
      browser({ Authorization: `Token ${ACME_TOKEN}`, 'X-Client-System': 'tests' }),
    );

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('vary')).toBe('Accept, Cookie');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(shownText(page.text)).toBe(JSON.stringify(json.body, null, 4));
    expect(page.text).toContain('<title>One widget – Billing API</title>');
    expect(page.text).toContain(`<p class="request">GET /api/v1/widgets/${W2}/</p>`);
    expect(page.text).toContain('<b>HTTP 200 OK</b>');
  });

  it('answers HEAD like GET, without the page', async () => {
    const response = await fetch(`${app.url}/api/v1/widgets/`, {
      method: 'HEAD',
      headers: { Accept: BROWSER_ACCEPT, Authorization: `Token ${ACME_TOKEN}`, 'X-Client-System': 'x' },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await response.text()).toBe('');
  });
});

describe('the page of a list', () => {
  it('escapes every value (a hostile name, a hostile filter value) and links details and pages', async () => {
    const query = `?page_size=1&name=${encodeURIComponent(HOSTILE)}`;
    const page = await app.request('GET', `/api/v1/widgets/${query}`, signedIn());

    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain(HOSTILE);
    expect(page.text).toContain(
      '&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;',
    );
    expect(shownJson(page.text)).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [expect.objectContaining({ uuid: W1, name: HOSTILE })],
    });
    expect(page.text).toContain(`<a href="/api/v1/widgets/${W1}/">&quot;${W1}&quot;</a>`);
    // The filter box shows the hostile value as a value, not as markup.
    expect(page.text).toContain(
      'name="name" value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;"',
    );
  });

  it('links the next and previous pages (absolute URLs of the envelope)', async () => {
    const page = await app.request('GET', '/api/v1/widgets/?page_size=1&page=2', signedIn());

    const next = `${app.url}/api/v1/widgets/?page=3&amp;page_size=1`;
    const previous = `${app.url}/api/v1/widgets/?page_size=1`;
    expect(page.text).toContain(`<a href="${previous}">« Previous page</a><a href="${next}">Next page »</a>`);
    expect(page.text).toContain(`<a href="${next}">&quot;${next}&quot;</a>`);
  });

  it("shows the list's filters as a form on the list, with the current values chosen", async () => {
    const page = await app.request('GET', '/api/v1/widgets/?color=blue&active=false&ordering=-name', signedIn());

    expect(page.text).toContain('<form class="filters" method="get" action="/api/v1/widgets/">');
    expect(page.text).toContain(
      '<select id="filter-color" name="color"><option value="">—</option><option value="red">red</option>' +
        '<option value="green">green</option><option value="blue" selected>blue</option></select>',
    );
    expect(page.text).toContain(
      '<select id="filter-active" name="active"><option value="">—</option><option value="true">true</option>' +
        '<option value="false" selected>false</option></select>',
    );
    expect(page.text).toContain('<option value="-name" selected>-name</option>');
    expect(page.text).toContain('name="launch_date" value="" placeholder="YYYY-MM-DD"');
    expect(shownJson(page.text)).toMatchObject({ count: 1, results: [{ uuid: W2 }] });
  });
});

describe('errors as pages', () => {
  it('a browser without a session gets the 401 as a page with the sign-in form', async () => {
    const page = await app.request('GET', '/api/v1/widgets/', browser());

    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shownJson(page.text)).toEqual({ detail: 'Invalid token.' });
    expect(page.text).toContain(
      '<form method="post" action="/api/browsable/sign-in/"><input type="hidden" name="next" value="/api/v1/widgets/">',
    );
    expect(page.text).toContain(
      '<input id="token" name="token" type="password" autocomplete="off" required size="32">',
    );
  });

  it('an unknown path and an unknown object are 404 pages', async () => {
    for (const path of ['/api/v1/nothing-here/', '/api/v1/widgets/44444444-4444-4444-8444-444444444444/']) {
      const page = await app.request('GET', path, signedIn());
      expect(page.status).toBe(404);
      expect(shownJson(page.text)).toEqual({ detail: 'Not found.' });
      expect(page.text).toContain('<b>HTTP 404 Not Found</b>');
    }
  });
});

describe('the session cookie', () => {
  it('sign-in checks the token, keeps it in an HttpOnly, SameSite=Strict session cookie and returns (303)', async () => {
    const response = await signIn({ token: `Token ${ACME_TOKEN}`, next: '/api/v1/widgets/?color=blue' });

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/api/v1/widgets/?color=blue');
    expect(response.headers.get('set-cookie')).toBe(
      `billing_browsable_token=${ACME_TOKEN}; Path=/; HttpOnly; SameSite=Strict`,
    );
  });

  it('returns only to a path of this host', async () => {
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const response = await signIn({ token: ACME_TOKEN, next });
      expect(response.headers.get('location')).toBe('/api/v1/');
    }
  });

  it('refuses an unknown token (the 401 page, no cookie) and a form from another site (403)', async () => {
    const unknown = await signIn({ token: 'not-a-token', next: '/api/v1/widgets/' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('set-cookie')).toBeNull();
    const page = await unknown.text();
    expect(shownJson(page)).toEqual({ detail: 'Invalid token.' });
    expect(page).toContain('<input type="hidden" name="next" value="/api/v1/widgets/">');

    const foreign = await signIn({ token: ACME_TOKEN }, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
  });

  it('signs a browser GET in, recorded with client system browsable-api', async () => {
    const page = await app.request('GET', `/api/v1/widgets/${W3}/`, signedIn());

    expect(page.status).toBe(200);
    expect(page.text).toContain('<span>Signed in (read only)</span><button type="submit">Sign out</button>');
    const line = app.logger.entries.findLast(
      (entry) => entry.message === 'request' && entry.fields.path === `/api/v1/widgets/${W3}/`,
    );
    expect(line?.fields).toMatchObject({ status: 200, client_system: 'browsable-api', api_user_id: 'api-user-acme' });
  });

  it('is worth nothing for JSON and for writes: those still need the Authorization header (401)', async () => {
    const cookie = {
      Authorization: undefined,
      'X-Client-System': 'tests',
      Cookie: `billing_browsable_token=${ACME_TOKEN}`,
    };
    const before = app.store.widgets.length;

    const json = await app.request('GET', '/api/v1/widgets/', { headers: { ...cookie, Accept: 'application/json' } });
    const create = await app.request('POST', '/api/v1/widgets/', { body: { name: 'Sneaky' }, headers: cookie });
    const patch = await app.request('PATCH', `/api/v1/widgets/${W3}/`, {
      body: { name: 'Sneaky' },
      headers: { ...cookie, Accept: BROWSER_ACCEPT },
    });
    const remove = await app.request('DELETE', `/api/v1/widgets/${W3}/`, {
      headers: { ...cookie, Accept: BROWSER_ACCEPT },
    });

    for (const response of [json, create, patch, remove]) expect(response.status).toBe(401);
    expect(json.body).toEqual({ detail: 'Invalid token.' });
    expect(create.body).toEqual({ detail: 'Invalid token.' });
    expect(app.store.widgets).toHaveLength(before);
    expect(app.store.get(W3).name).toBe('Bolt');
  });

  it('a cookie holding a token no longer valid is the 401 page', async () => {
    const page = await app.request('GET', '/api/v1/widgets/', signedIn('disabled-token-0987654321'));
    expect(page.status).toBe(401);
    expect(page.text).toContain('action="/api/browsable/sign-in/"');
  });

  it('sign-out clears the cookie and returns', async () => {
    const response = await fetch(`${app.url}/api/browsable/sign-out/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `billing_browsable_token=${ACME_TOKEN}` },
      body: 'next=%2Fapi%2Fv1%2Fwidgets%2F',
    });

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/api/v1/widgets/');
    expect(response.headers.get('set-cookie')).toBe(
      'billing_browsable_token=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    );
  });
});

describe('the API root', () => {
  it('/api/v1/ and / list the top-level resources with their URLs, for JSON clients without a token', async () => {
    for (const path of ['/api/v1/', '/']) {
      const response = await app.request('GET', path, {
        headers: { Authorization: undefined, 'X-Client-System': undefined },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ widgets: `${app.url}/api/v1/widgets/`, ping: `${app.url}/api/v1/ping/` });
    }
  });

  it('answers no other method: POST / finds nothing (404), POST /api/v1/ is 405', async () => {
    const site = await app.request('POST', '/', { body: {} });
    const root = await app.request('POST', '/api/v1/', { body: {} });

    expect([site.status, site.body]).toEqual([404, { detail: 'Not found.' }]);
    expect([root.status, root.body]).toEqual([405, { detail: 'Method "POST" not allowed.' }]);
    expect(root.headers.get('allow')).toBe('GET, HEAD');
  });

  it('is a page of links for a browser', async () => {
    const page = await app.request('GET', '/', browser());

    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${app.url}/api/v1/widgets/">&quot;${app.url}/api/v1/widgets/&quot;</a>`);
    expect(page.text).toContain('<title>API root: the top-level resources – Billing API</title>');
  });
});
