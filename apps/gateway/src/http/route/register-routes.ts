import type { RequestHandler, Router } from 'express';
import type { HttpLogger } from '../http-logger.js';
import { methodNotAllowedHandler, type PipelineDependencies, routeHandler } from './route-handler.js';
import { compareSpecificity, type PathTemplate, parsePathTemplate } from './route-path.js';
import { decodeParams, RouteTable } from './route-table.js';
import type { Route } from './route-types.js';
import { trailingSlashHandler } from './trailing-slash.js';

interface PathGroup {
  path: PathTemplate;
  routes: Route[];
}

/**
 * Mounts the routes on a strict, case-sensitive router, as one dispatcher over a RouteTable. For
 * every path (aliases included) a request gets the route of its method (GET also answers HEAD),
 * else the 405 answer with `Allow`; the same path without its trailing slash gets the slash rule.
 * Where both could match, literal segments win over parameters. Other paths fall through to what
 * is mounted after (the API docs, then the app's 404).
 */
export function registerRoutes(router: Router, routes: readonly Route[], dependencies: PipelineDependencies): void {
  assertUniqueOperationIds(routes);
  const table = new RouteTable();
  for (const group of groupByPath(routes)) {
    const byMethod = new Map<string, RequestHandler>();
    for (const route of group.routes) {
      byMethod.set(route.method.toUpperCase(), routeHandler(route, group.path.template, dependencies));
    }
    const otherMethods = methodNotAllowedHandler(group.routes, group.path.template, dependencies);
    table.add({ template: group.path, byMethod, otherMethods });
  }
  const slashRule = trailingSlashHandler(dependencies.logger);
  router.use(dispatch(table, slashRule));
}

function dispatch(table: RouteTable, slashRule: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const url = req.url;
    const queryStart = url.indexOf('?');
    const found = table.match(queryStart === -1 ? url : url.slice(0, queryStart));
    if (!found) {
      next();
      return;
    }
    if (!found.slash) {
      slashRule(req, res, next);
      return;
    }
    const { entry } = found;
    try {
      decodeParams(req, entry, found.rawParams);
    } catch (error) {
      next(error);
      return;
    }
    const handler =
      entry.byMethod.get(req.method) ??
      (req.method === 'HEAD' ? entry.byMethod.get('GET') : undefined) ??
      entry.otherMethods;
    handler(req, res, next);
  };
}

export function registerSlashRule(router: Router, pathWithoutSlash: string, logger: HttpLogger): void {
  router.all(pathWithoutSlash, trailingSlashHandler(logger));
}

function groupByPath(routes: readonly Route[]): PathGroup[] {
  const groups = new Map<string, PathGroup>();
  for (const route of routes) {
    for (const template of [route.path, ...route.aliases]) {
      const path = parsePathTemplate(template);
      // Paths that differ only in parameter names match the same URLs: one would never answer.
      const shape = path.segments.map((segment) => (segment.kind === 'param' ? '{}' : segment.value)).join('/');
      const group = groups.get(shape) ?? { path, routes: [] };
      if (group.path.template !== template) {
        throw new Error(`Routes ${group.path.template} and ${template} match the same URLs`);
      }
      if (group.routes.some((existing) => existing.method === route.method)) {
        throw new Error(`Two routes for ${route.method.toUpperCase()} ${template}`);
      }
      group.routes.push(route);
      groups.set(shape, group);
    }
  }
  return [...groups.values()].sort((a, b) => compareSpecificity(a.path, b.path));
}

function assertUniqueOperationIds(routes: readonly Route[]): void {
  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.operationId)) throw new Error(`Duplicate operationId ${route.operationId}`);
    seen.add(route.operationId);
  }
}
