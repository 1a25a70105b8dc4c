import { performance } from 'node:perf_hooks';
import { recordHttpRequest } from '@billing/observability';
import type { Request, RequestHandler, Response } from 'express';
import { requestState } from './request-state.js';

/** The label of a request no route answered: random paths must not each become a series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every answered request in http_requests_total and http_request_duration_seconds by
 * method, route template and status code, once the response is done. Mounted right after
 * requestContextMiddleware, whose state names the route the API's dispatcher matched.
 */
export function httpMetricsMiddleware(): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    res.once('close', () => {
      recordHttpRequest(
        { method: req.method, route: routeLabel(req), status_code: statusOf(res) },
        (performance.now() - startedAt) / 1_000,
      );
    });
    next();
  };
}

/**
 * The template that answered: the API's route (`/api/v1/accounts/{code}/`), else the pattern of an
 * express route of the pages (`/payments/noop/:registration/`), else `unmatched` (404s).
 */
function routeLabel(req: Request): string {
  const template = requestState(req).route;
  if (template) return template;
  const expressRoute: unknown = (req as { route?: { path?: unknown } }).route?.path;
  return typeof expressRoute === 'string' ? expressRoute : UNMATCHED_ROUTE;
}

/** As the access log: 499 when the client went away before the response was complete. */
function statusOf(res: Response): number {
  return res.writableFinished ? res.statusCode : 499;
}
