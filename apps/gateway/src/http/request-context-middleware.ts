import { performance } from 'node:perf_hooks';
import { acceptOrCreateRequestId, type RequestContext, runWithContext } from '@billing/observability';
import type { Request, RequestHandler, Response } from 'express';
import type { BrowsableView } from './browsable/browsable-view.js';
import { textHeader } from './header-values.js';
import type { HttpLogger } from './http-logger.js';
import { type RequestState, setRequestState } from './request-state.js';

/**
 * First middleware of the app: gives the request its id (the client's X-Request-ID when safe),
 * echoes it on the response, runs everything after it inside the request context, and writes one
 * access log line when the response is done. A browser's GET is marked to be answered with a page
 * of `browsable` (docs/api.md "The browsable view"), here rather than in a middleware of its own.
 */
export function requestContextMiddleware(logger: HttpLogger, browsable?: BrowsableView): RequestHandler {
  return (req, res, next) => {
    const requestId = acceptOrCreateRequestId(req.get('X-Request-ID'));
    res.setHeader('X-Request-ID', requestId);
    const context: RequestContext = {
      requestId,
      clientSystem: textHeader(req.headers['x-client-system']),
      externalUser: textHeader(req.headers['x-user']),
    };
    const state: RequestState = { context, startedAt: performance.now() };
    if (browsable?.wants(req)) state.browsable = browsable;
    setRequestState(req, state);
    res.once('close', () => logAccess(logger, req, res, state));
    runWithContext(context, next);
  };
}

function logAccess(logger: HttpLogger, req: Request, res: Response, state: RequestState): void {
  const { context } = state;
  // 499 (nginx's convention): the client went away before the response was complete.
  const status = res.writableFinished ? res.statusCode : 499;
  if (status < 500 && logger.isLevelEnabled?.('info') === false) return;
  const fields = {
    request_id: context.requestId,
    method: req.method,
    // The path only: query strings carry search terms and e-mail addresses.
    path: state.loggedPath ?? req.originalUrl.split('?')[0],
    route: state.route,
    status,
    duration_ms: Math.round((performance.now() - state.startedAt) * 10) / 10,
    organization_id: context.organizationId,
    api_user_id: context.apiUserId,
    client_system: context.clientSystem,
    external_user: context.externalUser,
  };
  if (status >= 500) logger.error(fields, 'request');
  else logger.info(fields, 'request');
}
