import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsHeaderKeeps, parseFieldsHeader, projectFields } from '../../src/http/index.js';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

const W1 = '11111111-1111-4111-8111-111111111111';

describe('Fields header', () => {
  let app: WidgetApp;

  beforeAll(async () => {
    app = await startWidgetApp();
    app.store.add({ uuid: W1, name: 'one', color: 'blue' });
  });
  afterAll(() => app.close());

  it('projects each list result, keeping model and schema', async () => {
    const response = await app.request('GET', '/api/v1/widgets/', { headers: { Fields: 'name, color' } });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [{ name: 'one', color: 'blue', model: 'widget', schema: '2026-11-22-widget' }],
    });
  });

  it('projects a detail object and ignores unknown names', async () => {
    const response = await app.request('GET', `/api/v1/widgets/${W1}/`, { headers: { Fields: 'uuid,nonsense' } });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ uuid: W1, model: 'widget', schema: '2026-11-22-widget' });
  });

  it('returns whole objects without the header or with an empty one', async () => {
    const without = await app.request('GET', `/api/v1/widgets/${W1}/`);
    const empty = await app.request('GET', `/api/v1/widgets/${W1}/`, { headers: { Fields: ' , ' } });

    expect(Object.keys(without.body as object)).toHaveLength(8);
    expect(empty.body).toEqual(without.body);
  });

  it('is ignored by routes that do not offer it', async () => {
    const response = await app.request('POST', `/api/v1/widgets/${W1}/paint-red/`, { headers: { Fields: 'uuid' } });

    expect(Object.keys(response.body as object)).toHaveLength(8);
  });
});

describe('projectFields', () => {
  it('leaves non-objects alone', () => {
    const fields = parseFieldsHeader('a');
    expect(projectFields(null, fields)).toBeNull();
    expect(projectFields([{ a: 1, b: 2 }], fields)).toEqual([{ a: 1, b: 2 }]);
    expect(projectFields({ a: 1, b: 2 }, fields)).toEqual({ a: 1 });
  });
});

describe('fieldsHeaderKeeps', () => {
  it('keeps every field without a Fields header, or with one that names nothing', () => {
    expect(fieldsHeaderKeeps({}, 'subscription_set')).toBe(true);
    expect(fieldsHeaderKeeps({ fields: ' , ' }, 'subscription_set')).toBe(true);
  });

  it('keeps only the fields the header names, and model and schema always', () => {
    const headers = { fields: 'code, subscription_set' };
    expect(fieldsHeaderKeeps(headers, 'subscription_set')).toBe(true);
    expect(fieldsHeaderKeeps(headers, 'draftinvoiceline_set')).toBe(false);
    expect(fieldsHeaderKeeps(headers, 'model')).toBe(true);
  });
});
