import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';

interface Operation {
  operationId: string;
  security: unknown[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: unknown;
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>>; schemas: Record<string, unknown> };
}

const NO_AUTH = { Authorization: undefined, 'X-Client-System': undefined };

describe('OpenAPI document and console', () => {
  let app: WidgetApp;
  let document: Document;

  beforeAll(async () => {
    app = await startWidgetApp();
    const response = await app.request('GET', '/api/schema/', { headers: NO_AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    document = response.body as Document;
  });
  afterAll(() => app.close());

  it('is OpenAPI 3.1 with every route, each hyphen/underscore twin listed once in its hyphen form', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Billing API');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/widgets/',
        '/api/v1/widgets/{uuid}/',
        '/api/v1/widgets/{uuid}/paint-red/',
        '/api/v1/ping/',
      ]),
    );
    expect(Object.keys(document.paths)).not.toContain('/api/v1/widgets/{uuid}/paint_red/');
    expect(Object.keys(document.paths['/api/v1/widgets/'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/api/v1/widgets/{uuid}/'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(document.paths['/api/v1/widgets/{uuid}/paint-red/']?.post?.operationId).toBe('paintWidgetRed');
  });

  it('describes token auth and X-Client-System as security schemes', () => {
    expect(document.components.securitySchemes).toEqual({
      TokenAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
      ClientSystem: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Client-System' }),
    });
    expect(document.components.securitySchemes.TokenAuth?.description).toContain('Token <API_TOKEN>');
    expect(document.components.securitySchemes.TokenAuth?.description).toContain(
      'In this console, paste the token alone: the console adds `Token `',
    );
    expect(document.paths['/api/v1/widgets/']?.get?.security).toEqual([{ TokenAuth: [], ClientSystem: [] }]);
    expect(document.paths['/api/v1/ping/']?.get?.security).toEqual([]);
  });

  it('documents list parameters: filters, page, page_size, ordering, Fields', () => {
    const names = (document.paths['/api/v1/widgets/']?.get?.parameters ?? []).map((p) => `${p.in}:${p.name}`);

    expect(names).toEqual(
      expect.arrayContaining([
        'query:color',
        'query:created_date__gte',
        'query:created_date__org_tz_lte',
        'query:page',
        'query:page_size',
        'query:ordering',
        'header:X-User',
        'header:Fields',
      ]),
    );
  });

  it('documents path parameters, bodies and error answers', () => {
    const patch = document.paths['/api/v1/widgets/{uuid}/']?.patch;

    expect(patch?.parameters).toContainEqual(expect.objectContaining({ name: 'uuid', in: 'path', required: true }));
    expect(patch?.requestBody).toBeDefined();
    expect(Object.keys(patch?.responses ?? {}).sort()).toEqual(['200', '400', '401', '404', '429', '500']);
    expect(document.components.schemas).toHaveProperty('Widget');
  });

  it('redirects /api/schema to the slashed URL and refuses writes', async () => {
    const redirect = await app.request('GET', '/api/schema', { headers: NO_AUTH });
    const write = await app.request('POST', '/api/schema/', { headers: NO_AUTH });

    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/schema/');
    expect(write.status).toBe(405);
    expect(write.body).toEqual({ detail: 'Method "POST" not allowed.' });
  });

  it('serves the interactive console without auth, pointed at /api/schema/', async () => {
    const page = await app.request('GET', '/api/docs/', { headers: NO_AUTH });
    const init = await app.request('GET', '/api/docs/swagger-ui-init.js', { headers: NO_AUTH });
    const css = await app.request('GET', '/api/docs/swagger-ui.css', { headers: NO_AUTH });
    const redirect = await app.request('GET', '/api/docs', { headers: NO_AUTH });

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<div id="swagger-ui"></div>');
    expect(init.status).toBe(200);
    expect(init.text).toContain('"swaggerUrl": "/api/schema/"');
    expect(css.status).toBe(200);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/docs/');
  });

  it('keeps the authorization across reloads and adds the Token keyword to a bare token', async () => {
    const init = await app.request('GET', '/api/docs/swagger-ui-init.js', { headers: NO_AUTH });
    const config = swaggerUiConfigOf(init.text);

    expect(config.url).toBe('/api/schema/');
    expect(config.persistAuthorization).toBe(true);
    const sent = (authorization?: string) =>
      config.requestInterceptor({ headers: authorization === undefined ? {} : { Authorization: authorization } })
        .headers.Authorization;
    expect(sent('0a1b2c3d')).toBe('Token 0a1b2c3d');
    expect(sent(' 0a1b2c3d ')).toBe('Token 0a1b2c3d');
    expect(sent('Token 0a1b2c3d')).toBe('Token 0a1b2c3d');
    expect(sent('token 0a1b2c3d')).toBe('token 0a1b2c3d');
    expect(sent()).toBeUndefined();
  });
});

interface SwaggerUiConfig {
  url: string;
  persistAuthorization?: boolean;
  requestInterceptor(request: { headers: Record<string, string> }): { headers: Record<string, string> };
}

/**
 * Runs the console's script as the page does, with Swagger UI's bundle replaced by one that keeps
 * the configuration it is given: what the browser's Swagger UI gets.
 */
function swaggerUiConfigOf(script: string): SwaggerUiConfig {
  let config: SwaggerUiConfig | undefined;
  const bundle = Object.assign(
    (options: SwaggerUiConfig) => {
      config = options;
      return {};
    },
    { presets: { apis: {} }, plugins: { DownloadUrl: {} } },
  );
  const window: { location: { search: string; origin: string }; onload?: () => void } = {
    location: { search: '', origin: 'http://127.0.0.1:8000' },
  };
  runInNewContext(script, { window, SwaggerUIBundle: bundle, SwaggerUIStandalonePreset: {} });
  window.onload!();
  if (!config) throw new Error('the console script did not start Swagger UI');
  return config;
}
