import type { RequestHandler, Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { methodNotAllowed } from '../http/errors/http-error.js';
import { sendError } from '../http/errors/send-error.js';
import type { HttpLogger } from '../http/http-logger.js';
import { requestState } from '../http/request-state.js';
import { registerSlashRule } from '../http/route/register-routes.js';
import type { OpenApiDocument } from './build-openapi-document.js';

export const SCHEMA_PATH = '/api/schema/';
export const DOCS_PATH = '/api/docs/';

/**
 * Serves the OpenAPI document at /api/schema/ and the interactive console at /api/docs/, both
 * without authentication (they describe the API, they do not expose data). The console loads the
 * document from /api/schema/, so both always show the same thing.
 */
export function mountApiDocs(router: Router, document: OpenApiDocument, logger: HttpLogger): void {
  const readOnly = onlyGetAndHead(logger);
  router.get(SCHEMA_PATH, markRoute(SCHEMA_PATH), (_req, res) => {
    res.json(document);
  });
  router.all(SCHEMA_PATH, readOnly);
  registerSlashRule(router, SCHEMA_PATH.slice(0, -1), logger);

  // Before the console's mount, which would otherwise also answer the slashless path, where the
  // page's relative asset URLs would break.
  registerSlashRule(router, DOCS_PATH.slice(0, -1), logger);
  const page = { swaggerUrl: SCHEMA_PATH, customSiteTitle: 'Billing API', swaggerOptions: CONSOLE_OPTIONS };
  router.use(
    DOCS_PATH,
    markRoute(DOCS_PATH),
    readOnly,
    ...swaggerUi.serveFiles(undefined, page),
    swaggerUi.setup(null, page),
  );
}

/**
 * Swagger UI's options: the authorization typed in the Authorize dialog is kept (in the browser's
 * local storage) across reloads until Logout, and requests carry the token with the `Token`
 * keyword whether or not it was typed.
 */
const CONSOLE_OPTIONS = { persistAuthorization: true, requestInterceptor: addTokenKeyword };

/**
 * Puts the word `Token` before a bare API token in a request's Authorization header, as users paste
 * the token alone into an API key field. It runs in the browser: swagger-ui-express writes its
 * source into the console's script, so it refers to nothing outside itself.
 */
export function addTokenKeyword(request: { headers: Record<string, string> }): { headers: Record<string, string> } {
  const value = request.headers.Authorization;
  if (typeof value === 'string' && value.trim() !== '' && !/^token\s/i.test(value.trim())) {
    request.headers.Authorization = `Token ${value.trim()}`;
  }
  return request;
}

function markRoute(template: string): RequestHandler {
  return (req, _res, next) => {
    requestState(req).route = template;
    next();
  };
}

function onlyGetAndHead(logger: HttpLogger): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    sendError(req, res, methodNotAllowed(req.method, ['GET', 'HEAD']), logger);
  };
}
