import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEADERS, startWidgetApp, type WidgetApp } from './support/widget-app.js';

const W1 = '11111111-1111-4111-8111-111111111111';

/** JSON answers are written directly (sendJson), byte for byte what express's res.json sent. */
describe('JSON responses', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
    app.store.add({ uuid: W1, name: 'Ærø', color: 'green' });
  });
  afterAll(() => app.close());

  it('sends the body as UTF-8 JSON with its byte length', async () => {
    const response = await app.request('GET', `/api/v1/widgets/${W1}/`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(response.text)));
    expect(response.text).toBe(JSON.stringify(response.body));
    expect(response.body).toMatchObject({ uuid: W1, name: 'Ærø' });
    expect(response.headers.get('etag')).toBeNull();
  });

  it('answers HEAD like GET without the body', async () => {
    const get = await app.request('GET', `/api/v1/widgets/${W1}/`);
    const head = await fetch(`${app.url}/api/v1/widgets/${W1}/`, { method: 'HEAD', headers: DEFAULT_HEADERS });

    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });

  it('writes errors the same way', async () => {
    const response = await app.request('GET', '/api/v1/nothing/');

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.text).toBe('{"detail":"Not found."}');
    expect(response.headers.get('content-length')).toBe('23');
  });
});
