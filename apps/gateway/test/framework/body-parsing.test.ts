import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const WIDGETS = '/api/v1/widgets/';

describe('JSON request bodies', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
  });
  afterAll(() => app.close());

  it('refuses a write whose body is not JSON with 415 naming the media type', async () => {
    const response = await app.request('POST', WIDGETS, {
      body: 'name=x',
      headers: { 'Content-Type': 'text/plain' },
    });

    expect(response.status).toBe(415);
    expect(response.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
  });

  it('quotes the content type as sent, parameters included', async () => {
    const response = await app.request('PATCH', `${WIDGETS}11111111-1111-4111-8111-111111111111/`, {
      body: '<x/>',
      headers: { 'Content-Type': 'application/xml; charset=utf-8' },
    });

    expect(response.status).toBe(415);
    expect(response.body).toEqual({ detail: 'Unsupported media type "application/xml; charset=utf-8" in request.' });
  });

  it('refuses a body sent without any content type', async () => {
    const response = await fetch(`${app.url}${WIDGETS}`, {
      method: 'POST',
      headers: { Authorization: 'Token acme-token-1234567890', 'X-Client-System': 't' },
      body: new Blob(['{"name": "x"}']),
    });

    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ detail: 'Unsupported media type "" in request.' });
  });

  it('accepts application/json with a charset', async () => {
    const response = await app.request('POST', WIDGETS, {
      body: JSON.stringify({ name: 'Blå' }),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({ name: 'Blå' });
  });

  it('answers malformed JSON with 400 JSON parse error', async () => {
    const response = await app.request('POST', WIDGETS, {
      body: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      detail: 'JSON parse error - Unexpected end of JSON input',
    });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    const response = await app.request('POST', WIDGETS, { body: { name: 'big', padding } });

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'Request body is larger than the limit of 1048576 bytes.' });
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const skeleton = JSON.stringify({ name: 'big', padding: '' });
    const body = JSON.stringify({ name: 'big', padding: 'x'.repeat(1024 * 1024 - skeleton.length) });
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);

    const response = await app.request('POST', WIDGETS, { body, headers: { 'Content-Type': 'application/json' } });

    expect(response.status).toBe(201);
  });

  it('treats a write without a body as an empty object (every required field is missing)', async () => {
    const response = await app.request('POST', WIDGETS);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ name: ['This field is required.'] });
  });

  it('ignores the content type of an empty body, as DRF does', async () => {
    const response = await app.request('POST', `${WIDGETS}11111111-1111-4111-8111-111111111111/paint-red/`, {
      headers: { 'Content-Type': 'text/plain' },
    });

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('answers a JSON null body "No data provided"', async () => {
    const response = await app.request('POST', WIDGETS, {
      body: 'null',
      headers: { 'Content-Type': 'application/json' },
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['No data provided'] });
  });

  it('reports a body of the wrong JSON type under non_field_errors', async () => {
    const list = await app.request('POST', WIDGETS, { body: [{ name: 'x' }] });
    const text = await app.request('POST', WIDGETS, { body: '"x"', headers: { 'Content-Type': 'application/json' } });

    expect(list.status).toBe(400);
    expect(list.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    expect(text.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
  });

  it('checks the token before reading the body', async () => {
    const response = await app.request('POST', WIDGETS, {
      body: 'not json',
      headers: { 'Content-Type': 'text/plain', Authorization: 'Token nope' },
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
  });
});
