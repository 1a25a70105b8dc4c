import type { Clock } from '@billing/clock';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiInfo,
  type RequestExamples,
} from '../openapi/build-openapi-document.js';
import { mountApiDocs } from '../openapi/mount-api-docs.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { Authenticator } from './auth/authenticator.js';
import { apiRootRoute, mountSiteRoot } from './browsable/api-root.js';
import { BrowsableView } from './browsable/browsable-view.js';
import { mountSessionRoutes } from './browsable/session-routes.js';
import { notFound } from './errors/http-error.js';
import { sendError } from './errors/send-error.js';
import type { HttpLogger } from './http-logger.js';
import { httpMetricsMiddleware } from './http-metrics-middleware.js';
import { createJsonBodyReader, DEFAULT_BODY_LIMIT_BYTES } from './json-body.js';
import { requestContextMiddleware } from './request-context-middleware.js';
import { registerRoutes } from './route/register-routes.js';
import type { Route } from './route/route-types.js';
import { tracingMiddleware } from './tracing-middleware.js';

export interface HttpAppOptions {
  routes: readonly Route[];
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  /**
   * Where `Idempotency-Key` answers are kept (docs/api.md "Idempotency keys"). Null ignores the
   * header: only for apps that test other concerns; the gateway always has one.
   */
  idempotencyStore: IdempotencyStore | null;
  clock: Clock;
  logger: HttpLogger;
  /**
   * Express's `trust proxy`: when set, X-Forwarded-Proto/-Host from trusted peers shape the
   * absolute URLs of pagination links. Off by default: a client must not choose our links' host.
   */
  trustProxy?: boolean | number | string | string[];
  /** Largest accepted request body (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Requests per minute for principals without their own limit (default 60, the contract's). */
  defaultRateLimitPerMinute?: number;
  openApi?: OpenApiInfo;
  /** The request body the documentation shows for each operation, by operationId. */
  requestExamples?: RequestExamples;
  /** Server-rendered pages for people (not the API: no token, no JSON), e.g. the noop card page. */
  pages?: readonly Router[];
  /** GET /healthz and /readyz, answered first: no request id, access log line or request metrics. */
  probes?: RequestHandler;
}

export const DEFAULT_OPENAPI_INFO: OpenApiInfo = { title: 'Billing API', version: 'v1' };

/** The OpenAPI document of an app of `routes` (the API root included), as /api/schema/ serves it. */
export function apiDocumentOf(
  routes: readonly Route[],
  info: OpenApiInfo = DEFAULT_OPENAPI_INFO,
  requestExamples?: RequestExamples,
): OpenApiDocument {
  return buildOpenApiDocument([apiRootRoute(routes), ...routes], info, requestExamples);
}

/**
 * The gateway's REST app: request ids and context, the routes with their guards and validation,
 * /api/schema/ and /api/docs/, and DRF style answers for everything that is not a route.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // DRF sends no ETag; a 304 would also hide the fresh rate-limit headers of a repeated GET.
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false);

  const dependencies = {
    authenticator: options.authenticator,
    rateLimiter: options.rateLimiter,
    idempotencyStore: options.idempotencyStore,
    clock: options.clock,
    logger: options.logger,
    defaultRateLimitPerMinute: options.defaultRateLimitPerMinute ?? 60,
    readJsonBody: createJsonBodyReader(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES),
  };
  const root = apiRootRoute(options.routes);
  const routes = [root, ...options.routes];
  const browsable = new BrowsableView(routes);
  // Strict: "/accounts" and "/accounts/" are different paths (the trailing-slash rule needs it).
  const router = express.Router({ strict: true, caseSensitive: true });
  mountSessionRoutes(router, browsable, options.authenticator, options.logger);
  mountSiteRoot(router, root);
  registerRoutes(router, routes, dependencies);
  const document = apiDocumentOf(options.routes, options.openApi, options.requestExamples);
  mountApiDocs(router, document, options.logger);

  if (options.probes) app.use(options.probes);
  app.use(tracingMiddleware());
  app.use(requestContextMiddleware(options.logger, browsable));
  app.use(httpMetricsMiddleware());
  for (const pages of options.pages ?? []) app.use(pages);
  app.use(router);
  app.use(unknownPath(options.logger));
  app.use(lastResort(options.logger));
  return app;
}

function unknownPath(logger: HttpLogger): RequestHandler {
  return (req, res) => sendError(req, res, notFound(), logger);
}

function lastResort(logger: HttpLogger): ErrorRequestHandler {
  return (error, req, res, _next) => sendError(req, res, error, logger);
}
