import { describe, expect, it } from 'vitest';
import type { ServiceClients } from '../clients/service-clients.js';
import { allRoutes } from '../routes/index.js';
import { buildOpenApiDocument } from './build-openapi-document.js';
import { REQUEST_EXAMPLES } from './request-examples.js';

// Routes only call their clients when a request comes; building them needs none.
const routes = allRoutes({} as ServiceClients);
const withBody = routes.filter((route) => route.body);

describe('request examples', () => {
  it('exist for every operation with a body, and only for those', () => {
    expect(
      withBody.filter((route) => !(route.operationId in REQUEST_EXAMPLES)).map((route) => route.operationId),
    ).toEqual([]);
    expect(Object.keys(REQUEST_EXAMPLES).sort()).toEqual(withBody.map((route) => route.operationId).sort());
  });

  it.each(withBody.map((route) => [route.operationId, route] as const))(
    '%s: passes the zod schema that checks its requests',
    (_operationId, route) => {
      const parsed = route.body!.safeParse(REQUEST_EXAMPLES[route.operationId]);
      expect(parsed.error?.issues ?? []).toEqual([]);
    },
  );

  it('are what the document shows for each body', () => {
    const document = buildOpenApiDocument(routes, { title: 'Billing API', version: 'v1' }, REQUEST_EXAMPLES);
    const shown = Object.values(document.paths ?? {}).flatMap((methods) =>
      Object.values(methods as Record<string, { operationId?: string; requestBody?: unknown }>)
        .filter((operation) => operation.requestBody)
        .map((operation) => {
          const body = operation.requestBody as { content: Record<string, { example?: unknown }> };
          return [operation.operationId, body.content['application/json']?.example] as const;
        }),
    );
    expect(Object.fromEntries(shown)).toEqual(REQUEST_EXAMPLES);
  });
});
