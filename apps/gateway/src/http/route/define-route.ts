import type { z } from 'zod';
import { parsePathTemplate } from './route-path.js';
import type { AnyRouteInput, ListRouteDefinition, ObjectSchema, Route, RouteDefinition } from './route-types.js';

/**
 * Defines one REST operation: the single source of its express route, its validation and its
 * OpenAPI entry. Types of `params`, `query`, `body` and the result follow from the schemas.
 */
export function defineRoute<
  Params extends ObjectSchema | undefined = undefined,
  Query extends ObjectSchema | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Response extends z.ZodType | undefined = undefined,
  Auth extends boolean = true,
>(definition: RouteDefinition<Params, Query, Body, Response, Auth>): Route {
  checkPaths(definition.path, definition.aliases ?? [], definition.params);
  if (definition.response.status === 204 && definition.response.schema) {
    throw new Error(`${definition.operationId}: a 204 response has no body schema`);
  }
  return {
    method: definition.method,
    path: definition.path,
    aliases: definition.aliases ?? [],
    operationId: definition.operationId,
    summary: definition.summary,
    description: definition.description,
    tags: definition.tags ?? [],
    auth: definition.auth ?? true,
    permission: definition.permission,
    params: definition.params,
    query: definition.query,
    body: definition.body,
    response: {
      status: definition.response.status,
      schema: definition.response.schema,
      description: definition.response.description,
    },
    list: undefined,
    fieldsHeader: definition.fieldsHeader ?? false,
    refusalBodyKey: definition.refusalBodyKey ?? 'detail',
    deprecated: definition.deprecated ?? false,
    // The pipeline builds the input from the same schemas the types come from.
    handler: async (input: AnyRouteInput) => definition.handler(input as never),
  };
}

/**
 * Defines a paginated GET list: `page`, `page_size` and `ordering` are read for the handler, which
 * returns `{count, results}`; the gateway answers with `{count, next, previous, results}`.
 */
export function defineListRoute<
  Item extends z.ZodType,
  Params extends ObjectSchema | undefined = undefined,
  Query extends ObjectSchema | undefined = undefined,
  Auth extends boolean = true,
>(definition: ListRouteDefinition<Params, Query, Item, Auth>): Route {
  checkPaths(definition.path, definition.aliases ?? [], definition.params);
  return {
    method: 'get',
    path: definition.path,
    aliases: definition.aliases ?? [],
    operationId: definition.operationId,
    summary: definition.summary,
    description: definition.description,
    tags: definition.tags ?? [],
    auth: definition.auth ?? true,
    permission: definition.permission,
    params: definition.params,
    query: definition.query,
    body: undefined,
    response: { status: 200, schema: undefined, description: undefined },
    list: { item: definition.item, ordering: definition.ordering ?? [] },
    fieldsHeader: definition.fieldsHeader ?? false,
    refusalBodyKey: definition.refusalBodyKey ?? 'detail',
    deprecated: definition.deprecated ?? false,
    handler: async (input: AnyRouteInput) => definition.handler(input as never),
  };
}

/** Fails at start-up, not at the first request, when paths and the params schema disagree. */
function checkPaths(path: string, aliases: readonly string[], params: ObjectSchema | undefined): void {
  const names = parsePathTemplate(path).paramNames;
  for (const alias of aliases) {
    const aliasNames = parsePathTemplate(alias).paramNames;
    if ([...aliasNames].sort().join() !== [...names].sort().join()) {
      throw new Error(`Alias ${alias} must have the parameters of ${path}`);
    }
  }
  if (params) {
    const declared = Object.keys(params.shape).sort().join();
    if (declared !== [...names].sort().join()) {
      throw new Error(`The params schema of ${path} must declare exactly: ${names.join(', ') || '(none)'}`);
    }
  }
}
