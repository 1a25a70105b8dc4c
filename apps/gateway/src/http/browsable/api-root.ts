import type { Router } from 'express';
import { z } from 'zod';
import { absoluteRequestUrl } from '../pagination/request-url.js';
import { requestState } from '../request-state.js';
import { sendJson } from '../response/send-json.js';
import { defineRoute } from '../route/define-route.js';
import type { Route } from '../route/route-types.js';

export const API_ROOT = '/api/v1/';
const TOP_LEVEL = /^\/api\/v1\/([A-Za-z0-9_-]+)\/$/;

/** The top-level resources: every GET on `/api/v1/<name>/`, by name, in route order (twins once). */
function topLevelResources(routes: readonly Route[]): string[] {
  return routes.flatMap((route) => {
    const name = route.method === 'get' ? TOP_LEVEL.exec(route.path)?.[1] : undefined;
    return name === undefined ? [] : [name];
  });
}

/**
 * The API root at /api/v1/ (and /), as DRF's DefaultRouter shows it: each top-level resource's
 * name with its absolute URL. It shows no data, so it needs no token, like the OpenAPI document.
 */
export function apiRootRoute(routes: readonly Route[]): Route {
  const names = topLevelResources(routes);
  return defineRoute({
    method: 'get',
    path: API_ROOT,
    operationId: 'apiRoot',
    summary: 'API root: the top-level resources',
    tags: ['api root'],
    auth: false,
    response: { status: 200, schema: z.record(z.string(), z.url()).meta({ id: 'ApiRoot' }) },
    handler: ({ req }) => {
      const origin = absoluteRequestUrl(req).origin;
      return Object.fromEntries(names.map((name) => [name, `${origin}${API_ROOT}${name}/`]));
    },
  });
}

/** `/` answers as the API root (GET and HEAD; other methods find nothing there). */
export function mountSiteRoot(router: Router, root: Route): void {
  router.get('/', async (req, res, next) => {
    const state = requestState(req);
    state.route = '/';
    state.routeDefinition = root;
    try {
      const body = await root.handler({
        params: {},
        query: {},
        body: undefined,
        headers: req.headers,
        principal: null,
        context: state.context,
        req,
      });
      sendJson(req, res, 200, body);
    } catch (error) {
      next(error);
    }
  });
}
