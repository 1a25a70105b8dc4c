import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../http/pagination/page-request.js';
import type { Route } from '../http/route/route-types.js';
import { IDEMPOTENCY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency-rules.js';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const AUTHENTICATED = [{ TokenAuth: [], ClientSystem: [] }];

/** Request body examples by operationId (see request-examples.ts). */
export type RequestExamples = Readonly<Record<string, unknown>>;

/**
 * The OpenAPI 3.1 document of the routes, generated from the same zod schemas that validate the
 * requests, so the documentation cannot drift from what the gateway accepts. A path answering in a
 * hyphen and an underscore form (its twin) is listed once, in the hyphen form the contract uses;
 * an operation with a body shows its example from `examples`.
 */
export function buildOpenApiDocument(
  routes: readonly Route[],
  info: OpenApiInfo,
  examples: RequestExamples = {},
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerSharedComponents(registry);
  for (const route of routes) {
    const documented = documentedPath(route);
    const others = [route.path, ...route.aliases].filter((path) => path !== documented && !areTwins(path, documented));
    others.forEach((alias, index) => {
      registry.registerPath(
        operation(
          route,
          alias,
          `${route.operationId}Alias${index === 0 ? '' : index + 1}`,
          `Same as ${documented}`,
          examples,
        ),
      );
    });
    registry.registerPath(operation(route, documented, route.operationId, route.description, examples));
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description ?? DEFAULT_DESCRIPTION },
  });
}

/** Of a path and its twins, the one with the fewest underscores: the hyphen form. */
function documentedPath(route: Route): string {
  const underscores = (path: string) => path.replace(/\{[^}]*\}/g, '').split('_').length;
  return [route.path, ...route.aliases]
    .filter((path) => path === route.path || areTwins(path, route.path))
    .reduce((best, path) => (underscores(path) < underscores(best) ? path : best));
}

/** The same path but for `-` and `_` in its words (parameter names stay as they are). */
function areTwins(a: string, b: string): boolean {
  const words = (path: string) => path.replace(/\{[^}]*\}|_/g, (match) => (match === '_' ? '-' : match));
  return a !== b && words(a) === words(b);
}

const DEFAULT_DESCRIPTION = [
  'Every request sends `Authorization: Token <API_TOKEN>` and `X-Client-System: <calling application>`;',
  '`X-User` (the user in the calling system) is recommended. URLs end with a slash.',
  'Multi-word paths are listed with hyphens (`/payment-gateways/`); each also answers with underscores',
  '(`/payment_gateways/`).',
  'Lists take `page`, `page_size` (default 20, at most 100) and `ordering`, and answer',
  '`{count, next, previous, results}`. Validation errors are `{"<field>": ["message"]}`.',
  'In this console, Authorize takes the API token (the console adds the word `Token`; typing it too works)',
  "and the calling application's name, and keeps both across reloads of the page until you log out.",
  'Request examples refer to objects by example uuids: replace them with your own.',
].join(' ');

const ErrorDetail = z.object({ detail: z.string() }).meta({ id: 'ErrorDetail' });
const ServerError = z.object({ detail: z.string(), request_id: z.string() }).meta({ id: 'ServerError' });
const ValidationErrors = z.record(z.string(), z.unknown()).meta({
  id: 'ValidationErrors',
  description:
    'DRF style: `{"<field>": ["message", ...]}`, nested objects for nested fields, `non_field_errors` for errors ' +
    'about the whole object, a list with one entry per item for list bodies. A refused business rule is ' +
    '`{"detail": "<why>"}` instead.',
});

function registerSharedComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'TokenAuth', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'The word `Token`, one space, then the API token: `Authorization: Token <API_TOKEN>`. A bare token, another ' +
      'scheme, or an unknown or disabled token is 401 `{"detail": "Invalid token."}`. In this console, paste the ' +
      'token alone: the console adds `Token ` (a value already starting with `Token ` is sent as it is).',
  });
  registry.registerComponent('securitySchemes', 'ClientSystem', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Client-System',
    description:
      'Name of the calling application, required on every authenticated request (401 ' +
      '`{"detail": "X-Client-System header is required."}` without it). Used in support and audit logs.',
  });
  const header = (description: string) => ({ description, schema: { type: 'string' as const } });
  registry.registerComponent(
    'headers',
    'RequestId',
    header('Id of this request; the client value is kept when valid.'),
  );
  registry.registerComponent('headers', 'RateLimitLimit', header('Requests allowed per minute.'));
  registry.registerComponent('headers', 'RateLimitRemaining', header('Requests left in the current minute.'));
  registry.registerComponent('headers', 'RateLimitReset', header('End of the current minute, in epoch seconds.'));
  registry.registerComponent('headers', 'RetryAfter', header('Seconds until requests are accepted again.'));
}

function operation(
  route: Route,
  path: string,
  operationId: string,
  description: string | undefined,
  examples: RequestExamples,
): RouteConfig {
  const example = examples[route.operationId];
  return {
    method: route.method,
    path,
    operationId,
    summary: route.summary,
    ...(description === undefined ? {} : { description }),
    tags: [...route.tags],
    deprecated: route.deprecated,
    security: route.auth ? AUTHENTICATED : [],
    request: {
      params: route.params,
      query: documentedQuery(route),
      headers: documentedHeaders(route),
      ...(route.body
        ? {
            body: {
              required: true,
              content: {
                'application/json': { schema: route.body, ...(example === undefined ? {} : { example }) },
              },
            },
          }
        : {}),
    },
    responses: responses(route),
  };
}

function documentedQuery(route: Route): z.ZodObject | undefined {
  if (!route.list) return route.query;
  const ordering = route.list.ordering;
  return (route.query ?? z.object({})).extend({
    page: z.int().min(1).optional().meta({ description: 'Page number, from 1. A page past the last one is 404.' }),
    page_size: z
      .int()
      .min(1)
      .optional()
      .meta({ description: `Items per page; default ${DEFAULT_PAGE_SIZE}, larger values count as ${MAX_PAGE_SIZE}.` }),
    ...(ordering.length > 0
      ? {
          ordering: z
            .string()
            .optional()
            .meta({
              description: `Comma-separated fields, \`-\` for descending; unknown fields are ignored. Fields: ${ordering.join(', ')}.`,
            }),
        }
      : {}),
  });
}

function documentedHeaders(route: Route): z.ZodObject | undefined {
  const headers: Record<string, z.ZodType> = {};
  if (route.auth) {
    headers['X-User'] = z.string().optional().meta({ description: 'User of the calling system, for the audit trail.' });
  }
  if (route.auth && route.method === 'post') {
    headers[IDEMPOTENCY_HEADER] = z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).optional().meta({
      description:
        'Retry safely: the first answer is kept for 24 hours per organization and key and replayed (Idempotent-Replayed: true) to the same request; 422 for another request with the key, 409 while the first runs.',
    });
  }
  if (route.fieldsHeader) {
    headers.Fields = z
      .string()
      .optional()
      .meta({ description: 'Comma-separated fields to return (unknown names are ignored; model and schema stay).' });
  }
  return Object.keys(headers).length > 0 ? z.object(headers) : undefined;
}

function responses(route: Route): Record<string, ResponseConfig> {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const successHeaders = {
    'X-Request-ID': ref('RequestId'),
    ...(route.auth
      ? {
          'X-RateLimit-Limit': ref('RateLimitLimit'),
          'X-RateLimit-Remaining': ref('RateLimitRemaining'),
          'X-RateLimit-Reset': ref('RateLimitReset'),
        }
      : {}),
  };
  const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
  const result: Record<string, ResponseConfig> = {
    [String(route.response.status)]: {
      description: route.response.description ?? (route.response.status === 204 ? 'No content.' : 'Success.'),
      headers: successHeaders,
      ...successContent(route, json),
    },
  };
  if (route.body || route.query) {
    result['400'] = { description: 'Invalid input, or a refused business rule.', content: json(ValidationErrors) };
  }
  if (route.auth) {
    result['401'] = { description: 'Invalid token, or no X-Client-System.', content: json(ErrorDetail) };
  }
  if (route.permission) result['403'] = { description: 'The token lacks a permission.', content: json(ErrorDetail) };
  if (route.params || route.list) {
    result['404'] = {
      description: route.list ? 'Invalid page.' : 'No such object in the organization.',
      content: json(ErrorDetail),
    };
  }
  if (route.auth && route.method === 'post') {
    result['409'] = {
      description: 'A request with this Idempotency-Key is still running, or a concurrent change won.',
      content: json(ErrorDetail),
    };
    result['422'] = { description: 'The Idempotency-Key was used with another request.', content: json(ErrorDetail) };
  }
  if (route.auth) {
    result['429'] = {
      description: 'Rate limit reached.',
      headers: { 'Retry-After': ref('RetryAfter') },
      content: json(ErrorDetail),
    };
  }
  result['500'] = { description: 'Server fault; quote request_id to support.', content: json(ServerError) };
  return result;
}

function successContent(route: Route, json: (schema: z.ZodType) => ResponseConfig['content']) {
  if (route.list) {
    return {
      content: json(
        z.object({
          count: z.int(),
          next: z.url().nullable(),
          previous: z.url().nullable(),
          results: z.array(route.list.item),
        }),
      ),
    };
  }
  return route.response.schema ? { content: json(route.response.schema) } : {};
}
