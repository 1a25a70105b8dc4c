import {
  contextFromCarrier,
  SpanKind,
  SpanStatusCode,
  startSpan,
  tracingEnabled,
  withActiveSpan,
} from '@billing/observability';
import type { RequestHandler } from 'express';
import { routeAndLoggedPath } from './request-state.js';

/**
 * First of all middleware when tracing is on (README "Configuration", OTEL_*): a server span per
 * request, named by method and route template (`POST /api/v1/subscriptions/`) once a route has
 * answered, that everything after it runs in, so the gRPC calls it makes are its children. A caller's
 * W3C `traceparent` is continued. The path recorded is the one the access log shows (never a
 * sign-in secret), without the query string. With tracing off it only calls next().
 */
export function tracingMiddleware(): RequestHandler {
  return (req, res, next) => {
    if (!tracingEnabled()) return next();
    const parent = contextFromCarrier((key) => {
      const value = req.headers[key];
      return Array.isArray(value) ? value[0] : value;
    });
    const span = startSpan(req.method, {
      kind: SpanKind.SERVER,
      parent,
      attributes: { 'http.request.method': req.method, 'url.scheme': req.protocol },
    });
    res.once('close', () => {
      const { route, loggedPath } = routeAndLoggedPath(req);
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('url.path', loggedPath ?? req.originalUrl.split('?')[0] ?? '');
      // 499 (as in the access log): the client went away before the response was complete.
      const status = res.writableFinished ? res.statusCode : 499;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
      span.end();
    });
    withActiveSpan(span, next);
  };
}
