import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { runWithContext } from '@billing/observability';
import type { Request, RequestHandler, Response } from 'express';
import { type GuardDependencies, guardRequest } from '../auth/guard-request.js';
import { methodNotAllowed, notFound, validationFailed } from '../errors/http-error.js';
import { sendError } from '../errors/send-error.js';
import type { JsonBodyReader } from '../json-body.js';
import { buildPageEnvelope, type ListPage } from '../pagination/page-envelope.js';
import { type PageRequest, parsePageRequest } from '../pagination/page-request.js';
import { absoluteRequestUrl } from '../pagination/request-url.js';
import { requestState } from '../request-state.js';
import { markUnrecordable, writeAnswer } from '../response/answer-recorder.js';
import { parseFieldsHeader, projectFields } from '../response/fields-header.js';
import { HttpResponse } from '../response/http-response.js';
import { sendJson } from '../response/send-json.js';
import { lastValuesOf } from '../validation/query-values.js';
import { hasNullCharacter, NULL_CHARACTERS_MESSAGE } from '../validation/text-checks.js';
import { parseBodyOrThrow, parseOrThrow } from '../validation/validate.js';
import { answerIdempotently, type IdempotencyDependencies, idempotencyKeyOf } from './idempotent-answer.js';
import type { Route } from './route-types.js';

export interface PipelineDependencies extends GuardDependencies, IdempotencyDependencies {
  readJsonBody: JsonBodyReader;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The express handler of one route: guard (token, X-Client-System, rate limit, permission), then
 * inside the caller's context: path parameters (404), query (400), page, body (415/413/400),
 * the handler, and the response. Any error on the way is mapped once by sendError.
 */
export function routeHandler(route: Route, template: string, dependencies: PipelineDependencies): RequestHandler {
  return async (req, res) => {
    const state = requestState(req);
    state.route = template;
    state.routeDefinition = route;
    let rawBody: unknown;
    try {
      const principal = await guardRequest(req, res, route, dependencies);
      const context = requestState(req).context;
      await runWithContext(context, async () => {
        const params = parseParams(route.params, req.params);
        const query = route.query ? parseOrThrow(route.query, lastValuesOf(req.query)) : req.query;
        const page = route.list ? parsePageRequest(req.query, route.list.ordering) : undefined;
        const idempotencyKey = idempotencyKeyOf(req, principal, dependencies);
        rawBody = WRITE_METHODS.has(req.method) ? await dependencies.readJsonBody(req, res) : undefined;
        const input = rawBody;
        // No body at all reads as {} (DRF: every required field is missing); JSON null stays null.
        const body = route.body ? parseBodyOrThrow(route.body, input === undefined ? {} : input) : undefined;
        // Writes the answer, errors included, so a keyed request can store what it answered.
        const respond = async () => {
          try {
            const result = await route.handler({
              params,
              query,
              body,
              headers: req.headers,
              principal,
              context,
              req,
              page,
            });
            await sendResult(req, res, route, result, page);
          } catch (error) {
            sendError(req, res, error, dependencies.logger, { refusalBodyKey: route.refusalBodyKey, input });
          }
        };
        const store = dependencies.idempotencyStore;
        if (idempotencyKey === null || principal === null || store === null) {
          await respond();
          return;
        }
        await answerIdempotently(
          req,
          res,
          { key: idempotencyKey, organizationId: principal.organizationId, rawBody: input },
          { ...dependencies, idempotencyStore: store },
          respond,
        );
      });
    } catch (error) {
      sendError(req, res, error, dependencies.logger, { refusalBodyKey: route.refusalBodyKey, input: rawBody });
    }
  };
}

/**
 * Answers a known path with a method it does not have. As in DRF the caller is authenticated and
 * counted first, so a client without a token learns nothing and the rate limit sees every call.
 */
export function methodNotAllowedHandler(
  routes: readonly Route[],
  template: string,
  dependencies: PipelineDependencies,
): RequestHandler {
  const methods = new Set(routes.map((route) => route.method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  const allowed = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].filter((method) => methods.has(method));
  const auth = routes.some((route) => route.auth);
  return async (req, res) => {
    requestState(req).route = template;
    try {
      await guardRequest(req, res, { auth }, dependencies);
      throw methodNotAllowed(req.method, allowed);
    } catch (error) {
      sendError(req, res, error, dependencies.logger);
    }
  };
}

/**
 * A path parameter that fails its schema names no object: 404, as DRF's get_object_or_404. One
 * holding a NUL is refused first, 400 naming the parameter (`{"code": ["Null characters are not
 * allowed."]}`): no object could have that name, but the lookup would reach PostgreSQL, which
 * cannot compare text holding NUL. %-decoding never yields a lone surrogate (a broken escape is 404).
 */
function parseParams(schema: Route['params'], params: Request['params']): unknown {
  const withNul = Object.entries(params).filter(([, value]) => typeof value === 'string' && hasNullCharacter(value));
  if (withNul.length > 0) {
    throw validationFailed(Object.fromEntries(withNul.map(([name]) => [name, [NULL_CHARACTERS_MESSAGE]])));
  }
  if (!schema) return params;
  try {
    return parseOrThrow(schema, params);
  } catch {
    throw notFound();
  }
}

async function sendResult(
  req: Request,
  res: Response,
  route: Route,
  result: unknown,
  page: PageRequest | undefined,
): Promise<void> {
  if (result instanceof HttpResponse) {
    await sendExplicit(req, res, result);
    return;
  }
  const fields = route.fieldsHeader ? parseFieldsHeader(req.get('Fields')) : null;
  if (route.list && page) {
    const envelope = buildPageEnvelope(absoluteRequestUrl(req), page, result as ListPage<unknown>);
    sendJson(req, res, 200, { ...envelope, results: envelope.results.map((item) => projectFields(item, fields)) });
    return;
  }
  if (route.response.status === 204) {
    res.status(204);
    writeAnswer(req, res, null, () => res.end());
    return;
  }
  const body = Array.isArray(result)
    ? result.map((item) => projectFields(item, fields))
    : projectFields(result, fields);
  sendJson(req, res, route.response.status, body);
}

async function sendExplicit(req: Request, res: Response, response: HttpResponse): Promise<void> {
  res.status(response.status).set(response.options.headers ?? {});
  if (response.body instanceof Readable) {
    res.type(response.options.contentType ?? 'application/octet-stream');
    markUnrecordable(req);
    // Once streaming has begun a failure can only cut the response short (the client sees an
    // incomplete body); the error is logged by the caller.
    await pipeline(response.body, res);
  } else if (response.body === undefined) {
    writeAnswer(req, res, null, () => res.end());
  } else if (typeof response.body === 'string') {
    const text = response.body;
    res.type(response.options.contentType ?? 'text/plain');
    writeAnswer(req, res, text, () => res.send(text));
  } else if (Buffer.isBuffer(response.body)) {
    markUnrecordable(req);
    res.type(response.options.contentType ?? 'text/plain').send(response.body);
  } else {
    sendJson(req, res, response.status, response.body);
  }
}
