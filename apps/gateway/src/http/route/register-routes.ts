import type { Router } from 'express';
import type { HttpLogger } from '../http-logger.js';
import { methodNotAllowedHandler, type PipelineDependencies, routeHandler } from './route-handler.js';
import { compareSpecificity, type PathTemplate, parsePathTemplate } from './route-path.js';
import type { Route } from './route-types.js';
import { trailingSlashHandler } from './trailing-slash.js';

interface PathGroup {
  path: PathTemplate;
  routes: Route[];
}

/**
 * Mounts the routes on a strict, case-sensitive router. For every path (aliases included) it
 * registers the methods, then a catch-all answering 405 with `Allow`, then the slashless twin for
 * the trailing-slash rule. Paths go in order of specificity so literal segments win over
 * parameters wherever both could match.
 */
export function registerRoutes(router: Router, routes: readonly Route[], dependencies: PipelineDependencies): void {
  assertUniqueOperationIds(routes);
  for (const group of groupByPath(routes)) {
    for (const route of group.routes) {
      router[route.method](group.path.expressPath, routeHandler(route, group.path.template, dependencies));
    }
    router.all(group.path.expressPath, methodNotAllowedHandler(group.routes, group.path.template, dependencies));
    registerSlashRule(router, group.path.expressPathWithoutSlash, dependencies.logger);
  }
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
