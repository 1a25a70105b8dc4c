import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const W1 = '11111111-1111-4111-8111-111111111111';

describe('URL rules', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
    app.store.add({ uuid: W1, name: 'one', color: 'green' });
  });
  afterAll(() => app.close());

  it('redirects GET without the trailing slash to the slashed URL, query kept as sent', async () => {
    const response = await app.request('GET', '/api/v1/widgets?color=green&name=a%20b&page=2');

    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/api/v1/widgets/?color=green&name=a%20b&page=2');
    expect(response.text).toBe('');
  });

  it('redirects HEAD and detail paths too', async () => {
    const response = await app.request('HEAD', `/api/v1/widgets/${W1}`);

    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(`/api/v1/widgets/${W1}/`);
  });

  it('redirects without asking for a token (the redirect reveals nothing)', async () => {
    const response = await app.request('GET', '/api/v1/widgets', { headers: { Authorization: undefined } });

    expect(response.status).toBe(301);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    'refuses %s without the trailing slash with 404 naming the URL',
    async (method) => {
      const response = await app.request(method, `/api/v1/widgets/${W1}/paint-red`, { body: {} });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: `URL must end with a slash: /api/v1/widgets/${W1}/paint-red/` });
    },
  );

  it('answers unknown paths 404 Not found., with or without a slash (no redirect to a dead end)', async () => {
    // `/` is the API root (browsable.test.ts).
    for (const path of ['/api/v1/gadgets/', '/api/v1/gadgets', '/nothing', '/nothing/']) {
      const response = await app.request('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).toEqual({ detail: 'Not found.' });
    }
  });

  it('is case-sensitive, as Django URLs are', async () => {
    const response = await app.request('GET', '/api/v1/Widgets/');

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('answers a known path with a wrong method 405 with Allow', async () => {
    const response = await app.request('GET', `/api/v1/widgets/${W1}/paint-red/`);

    expect(response.status).toBe(405);
    expect(response.body).toEqual({ detail: 'Method "GET" not allowed.' });
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('lists every method of the path in Allow, HEAD with GET', async () => {
    const response = await app.request('PUT', `/api/v1/widgets/${W1}/`, { body: {} });

    expect(response.status).toBe(405);
    expect(response.body).toEqual({ detail: 'Method "PUT" not allowed.' });
    expect(response.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD');
  });

  it('authenticates before answering 405, as DRF does', async () => {
    const response = await app.request('DELETE', '/api/v1/widgets/', { headers: { Authorization: undefined } });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
  });

  it('serves one route on its hyphen and underscore paths', async () => {
    const hyphen = await app.request('POST', `/api/v1/widgets/${W1}/paint-red/`);
    const underscore = await app.request('POST', `/api/v1/widgets/${W1}/paint_red/`);

    expect(hyphen.status).toBe(200);
    expect(hyphen.body).toMatchObject({ uuid: W1, color: 'red' });
    expect(underscore.status).toBe(400);
    expect(underscore.body).toEqual({ detail: 'Widget is already red.' });
  });

  it('lets a literal segment win over a parameter in the same place', async () => {
    const response = await app.request('GET', '/api/v1/widgets/context/');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ context: { organizationId: 'org-acme' } });
  });

  it('answers 404 Not found. when a path parameter fails its schema (no such object)', async () => {
    const response = await app.request('GET', '/api/v1/widgets/not-a-uuid/');

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('answers 404 Not found. for a path parameter with a broken %-escape', async () => {
    const response = await app.request('GET', '/api/v1/widgets/%E0%A4%A/');

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('sends 204 with no body for a delete', async () => {
    const uuid = '22222222-2222-4222-8222-222222222222';
    app.store.add({ uuid, name: 'two' });

    const response = await app.request('DELETE', `/api/v1/widgets/${uuid}/`);

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(app.store.widgets.map((widget) => widget.uuid)).toEqual([W1]);
  });

  it('lets a handler answer with its own status and headers', async () => {
    const response = await app.request('POST', `/api/v1/widgets/${W1}/export/`);

    expect(response.status).toBe(202);
    expect(response.body).toEqual({ job_uuid: 'job-1' });
    expect(response.headers.get('location')).toBe('/jobs/job-1/');
  });
});
